import Streams
import Testing

/// reduce, count, contains, allSatisfy, min/max, last and tryFirst(where:): each drains the
/// upstream and publishes one value when the result is known and demanded.
@Suite struct ReducingOperatorTests {
    @Test func reduceAccumulatesAndPublishesOnFinish() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2, 3].publisher.reduce(10, +).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "16", "finished"])
    }

    @Test func reduceWaitsForDemandBeforePublishing() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.reduce(0, +).subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "3", "finished"])
    }

    @Test func reduceAsksTheUpstreamForEverything() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.reduce(0, +).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func reduceForwardsAFailureWithoutAResult() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError(1))
        #expect(subscriber.log == ["sub", "failure(E1)"])
    }

    @Test func tryReduceFailsWithTheThrownErrorAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryReduce(0) { total, value in
            if value < 0 { throw TestError(9) }
            return total + value
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.log == ["sub", "failure(E9)"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func countPublishesTheNumberOfElements() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [5, 6, 7].publisher.count().subscribe(subscriber)
        #expect(subscriber.log == ["sub", "3", "finished"])
    }

    @Test func containsAnswersTrueAtTheFirstMatchAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Bool, Never>()
        upstream.contains(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.log == ["sub", "true", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func containsAnswersFalseWhenTheUpstreamFinishesWithoutAMatch() {
        let equal = TrackingSubscriber<Bool, Never>()
        let matching = TrackingSubscriber<Bool, Never>()
        [1, 3].publisher.contains(2).subscribe(equal)
        [1, 3].publisher.contains { $0 > 5 }.subscribe(matching)
        #expect(equal.log == ["sub", "false", "finished"])
        #expect(matching.log == ["sub", "false", "finished"])
    }

    @Test func tryContainsFailsWithTheThrownError() {
        let subscriber = TrackingSubscriber<Bool, Error>()
        [1, 2].publisher.tryContains { _ in throw TestError(4) }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "failure(E4)"])
    }

    @Test func allSatisfyAnswersFalseAtTheFirstFailureAndTrueOtherwise() {
        let upstream = TestPublisher<Int, Never>()
        let failing = TrackingSubscriber<Bool, Never>()
        upstream.allSatisfy { $0 > 0 }.subscribe(failing)
        upstream.send(1)
        upstream.send(-1)
        #expect(failing.log == ["sub", "false", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
        let passing = TrackingSubscriber<Bool, Never>()
        Empty<Int, Never>().allSatisfy { $0 > 0 }.subscribe(passing)
        #expect(passing.log == ["sub", "true", "finished"])
    }

    @Test func tryAllSatisfyFailsWithTheThrownError() {
        let subscriber = TrackingSubscriber<Bool, Error>()
        [1].publisher.tryAllSatisfy { _ in throw TestError(2) }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "failure(E2)"])
    }

    @Test func minAndMaxPublishTheExtremes() {
        let min = TrackingSubscriber<Int, Never>()
        let max = TrackingSubscriber<Int, Never>()
        let byLength = TrackingSubscriber<String, Never>()
        [3, 1, 4, 1, 5].publisher.min().subscribe(min)
        [3, 1, 4, 1, 5].publisher.max().subscribe(max)
        ["bb", "a", "ccc", "dd"].publisher.max { $0.count < $1.count }.subscribe(byLength)
        #expect(min.log == ["sub", "1", "finished"])
        #expect(max.log == ["sub", "5", "finished"])
        #expect(byLength.values == ["ccc"])
    }

    @Test func minOfAnEmptyUpstreamJustFinishes() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Empty<Int, Never>().min().subscribe(subscriber)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func tryMinAndTryMaxFailWithTheThrownError() {
        let min = TrackingSubscriber<Int, Error>()
        let max = TrackingSubscriber<Int, Error>()
        [1, 2].publisher.tryMin { _, _ in throw TestError(1) }.subscribe(min)
        [1, 2].publisher.tryMax { _, _ in throw TestError(2) }.subscribe(max)
        #expect(min.log == ["sub", "failure(E1)"])
        #expect(max.log == ["sub", "failure(E2)"])
    }

    @Test func lastPublishesTheFinalElementWhenDemanded() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        [1, 2, 3].publisher.last().subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "3", "finished"])
    }

    @Test func lastWhereAndTryLastWhereKeepTheFinalMatch() {
        let matching = TrackingSubscriber<Int, Never>()
        let throwing = TrackingSubscriber<Int, Error>()
        [1, 2, 3, 4].publisher.last { $0 % 2 == 1 }.subscribe(matching)
        [1, 2].publisher.tryLast { value in
            if value == 2 { throw TestError(5) }
            return true
        }.subscribe(throwing)
        #expect(matching.log == ["sub", "3", "finished"])
        #expect(throwing.log == ["sub", "failure(E5)"])
    }

    @Test func tryFirstWherePublishesTheFirstMatchOrTheThrownError() {
        let matching = TrackingSubscriber<Int, Error>()
        let throwing = TrackingSubscriber<Int, Error>()
        [1, 2, 3].publisher.tryFirst { $0 > 1 }.subscribe(matching)
        [1, 2, 3].publisher.tryFirst { _ in throw TestError(6) }.subscribe(throwing)
        #expect(matching.log == ["sub", "2", "finished"])
        #expect(throwing.log == ["sub", "failure(E6)"])
    }

    @Test func aReducingOperatorCancelledBeforeTheResultDeliversNothing() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.count().subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub"])
    }

    @Test func aCancelBeforeTheUpstreamSubscribesIsIgnoredAndTheUpstreamIsAskedForEverything() throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.count().subscribe(subscriber)
        try #require(upstream.operatorSubscription).cancel()
        let subscription = TestSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(subscription.requests == [.unlimited])
        #expect(subscription.cancelCount == 0)
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.log == ["sub", "0", "finished"])
    }

    @Test func valuesBeforeTheSubscriptionAreIgnored() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        var reduced: [Int] = []
        upstream.reduce(0) {
            reduced.append($1); return $0 + $1
        }.subscribe(subscriber)
        #expect(upstream.subscriber?.receive(5) == Subscribers.Demand.none)
        #expect(reduced.isEmpty)
        upstream.subscriber?.receive(subscription: TestSubscription())
        _ = upstream.subscriber?.receive(1)
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.values == [1])
    }
}
