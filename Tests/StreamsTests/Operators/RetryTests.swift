import Streams
import Testing

/// retry and replaceEmpty: operators that switch to a fresh upstream, carrying the demand.
@Suite struct RetryTests {
    @Test func retryResubscribesAfterAFailureAndKeepsEarlierValues() {
        let upstream = TestPublisher<Int, TestError>()
        defer { upstream.releaseSubscribers() }
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.retry(1).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError(1))
        #expect(upstream.subscribeCount == 2)
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func retryForwardsTheLastFailureWhenRetriesAreUsedUp() {
        let upstream = TestPublisher<Int, TestError>()
        defer { upstream.releaseSubscribers() }
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.retry(2).subscribe(subscriber)
        upstream.fail(TestError(1))
        upstream.fail(TestError(2))
        upstream.fail(TestError(3))
        #expect(upstream.subscribeCount == 3)
        #expect(subscriber.log == ["sub", "failure(E3)"])
    }

    @Test func retryAsksTheNewSubscriptionForTheOutstandingDemand() {
        let upstream = TestPublisher<Int, TestError>()
        defer { upstream.releaseSubscribers() }
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(3))
        upstream.retry(1).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError())
        #expect(upstream.subscription?.requests == [.max(2)])
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func retryCancelledStopsRetrying() {
        let upstream = TestPublisher<Int, TestError>()
        defer { upstream.releaseSubscribers() }
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.retry(5).subscribe(subscriber)
        subscriber.cancel()
        upstream.fail(TestError())
        #expect(upstream.subscribeCount == 1)
        #expect(subscriber.log == ["sub"])
    }

    @Test func replaceEmptySendsTheElementWhenTheUpstreamFinishesEmpty() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().replaceEmpty(with: 7).subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "7", "finished"])
    }

    @Test func replaceEmptyPassesANonEmptyStreamAndFailuresThrough() {
        let values = TrackingSubscriber<Int, Never>()
        let failure = TrackingSubscriber<Int, TestError>()
        [1, 2].publisher.replaceEmpty(with: 7).subscribe(values)
        Fail<Int, TestError>(error: TestError(1)).replaceEmpty(with: 7).subscribe(failure)
        #expect(values.log == ["sub", "1", "2", "finished"])
        #expect(failure.log == ["sub", "failure(E1)"])
    }

    @Test func retryEndsAsTheLastAttemptEndsEvenWhenAttemptsFailInsideSubscribe() {
        let upstream = TestPublisher<Int, TestError>()
        var attempts = 0
        upstream.onSubscribe = { publisher in
            attempts += 1
            guard attempts > 1 else { return }
            if attempts < 6 { publisher.fail(TestError(attempts)) } else { publisher.finish() }
        }
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.retry(5).subscribe(subscriber)
        upstream.fail(TestError(0))
        #expect(attempts == 6)
        #expect(subscriber.log == ["sub", "finished"])
        upstream.releaseSubscribers()
    }

    @Test func retrySubscribesAgainOnlyOnceTheSubscribeCallInWhichTheUpstreamFailedReturned() {
        let upstream = TestPublisher<Int, TestError>()
        var attempts = 0
        var depth = 0
        var deepest = 0
        upstream.onSubscribe = { publisher in
            depth += 1
            deepest = max(deepest, depth)
            attempts += 1
            if attempts > 1, attempts < 4 { publisher.fail(TestError(attempts)) }
            depth -= 1
        }
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.retry(5).subscribe(subscriber)
        upstream.fail(TestError(0))
        #expect(attempts == 4)
        #expect(deepest == 1)
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func retryWithANegativeCountNeverRunsOut() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.retry(-1).subscribe(subscriber)
        for attempt in 0..<20 { upstream.fail(TestError(attempt)) }
        #expect(upstream.subscribeCount == 21)
        #expect(subscriber.log == ["sub"])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func retryRequestsTheDemandItsSubscriberReturnsFromTheUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(5))
        upstream.retry(1).subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.subscription?.requests == [.max(3), .max(5)])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func retryPassesOnAValueALaterAttemptSendsBeforeItsSubscription() {
        /// Fails its first subscriber at once; sends 7 to later ones before their subscription.
        final class EagerSecondAttempt: Publisher, @unchecked Sendable {
            typealias Output = Int
            typealias Failure = TestError
            var attempts = 0
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
                attempts += 1
                if attempts == 1 {
                    subscriber.receive(subscription: TestSubscription())
                    subscriber.receive(completion: .failure(TestError(1)))
                } else {
                    _ = subscriber.receive(7)
                    subscriber.receive(subscription: TestSubscription())
                }
            }
        }
        let subscriber = TrackingSubscriber<Int, TestError>()
        EagerSecondAttempt().retry(1).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "7"])
        subscriber.cancel()
    }
}
