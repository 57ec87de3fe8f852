import Streams
import Testing

@Suite struct CatchTests {
    @Test func catchReplacesTheFailedPublisherAndKeepsEarlierValues() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.catch { _ in Just(99) }.subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError())
        #expect(subscriber.log == ["sub", "1", "99", "finished"])
    }

    @Test func catchSubscribesTheReplacementWithTheRemainingDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(4))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError())
        #expect(replacement.subscription?.requests == [.max(3)])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func catchHandlerReceivesTheError() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Fail<Int, TestError>(error: TestError(7)).catch { Just($0.code) }.subscribe(subscriber)
        #expect(subscriber.values == [7])
    }

    @Test func catchPassesFinishedThrough() {
        let subscriber = TrackingSubscriber<Int, Never>()
        var handlerCalls = 0
        Empty<Int, TestError>().catch { _ -> Just<Int> in
            handlerCalls += 1
            return Just(0)
        }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "finished"])
        #expect(handlerCalls == 0)
    }

    @Test func catchCancelAfterFailureCancelsTheReplacement() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.fail(TestError())
        subscriber.cancel()
        #expect(replacement.subscription?.cancelCount == 1)
        #expect(upstream.subscription?.cancelCount == 0)
    }

    @Test func tryCatchFailsWithTheThrownError() {
        let subscriber = TrackingSubscriber<Int, Error>()
        Fail<Int, TestError>(error: TestError(1)).tryCatch { _ -> Just<Int> in throw TestError(2) }.subscribe(
            subscriber)
        #expect(subscriber.failures.map { $0 as? TestError } == [TestError(2)])
    }

    @Test func tryCatchSubscribesTheReplacement() {
        let subscriber = TrackingSubscriber<Int, Error>()
        Fail<Int, TestError>(error: TestError(1)).tryCatch { _ in Just(5) }.subscribe(subscriber)
        #expect(subscriber.values == [5])
        #expect(subscriber.isFinished)
    }

    @Test func catchForwardsDemandReturnedBeforeTheFailureToTheReplacement() {
        let upstream = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError())
        #expect(replacement.subscription?.requests == [.max(2)])
        subscriber.cancel()
    }

    @Test func tryCatchDeliversNothingAfterCancel() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryCatch { _ in Just(1) }.subscribe(subscriber)
        subscriber.cancel()
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.log == ["sub"])
    }

    @Test func tryCatchDeliversNothingAfterTheHandlerThrew() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryCatch { _ -> Just<Int> in throw TestError(3) }.subscribe(subscriber)
        upstream.fail(TestError())
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.log == ["sub", "failure(E3)"])
    }

    @Test func replaceErrorWithoutDemandNeitherSendsNorFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.replaceError(with: 9).subscribe(subscriber)
        upstream.fail(TestError())
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "9", "finished"])
    }

    @Test func replaceErrorKeepsTheReplacementForLaterDemandDespiteASecondCompletion() {
        let upstream = ManualPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.replaceError(with: 42).subscribe(subscriber)
        upstream.subscriber?.receive(subscription: TestSubscription())
        upstream.subscriber?.receive(completion: .failure(TestError(1)))
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "42", "finished"])
    }
}

@Suite struct ReplaceErrorSubscriptionTests {
    @Test func replaceErrorCancelsASubscriptionThatArrivesAfterItWasCancelled() {
        let upstream = ManualPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: 0).subscribe(subscriber)
        let first = TestSubscription()
        upstream.subscriber?.receive(subscription: first)
        subscriber.cancel()
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(first.cancelCount == 1)
        #expect(late.cancelCount == 1)
    }
}
