import Streams
import Testing

@Suite struct FlatMapTests {
    @Test func flatMapAsksTheUpstreamForMaxPublishersAsSoonAsSubscribed() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.flatMap(maxPublishers: .max(2)) { Just($0) }.subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(2)])
        subscriber.cancel()
    }

    @Test func flatMapAsksAChildForOneValueAtATimeUnderLimitedDemand() {
        let upstream = TestPublisher<Int, Never>()
        let child = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        #expect(child.subscription?.requests == [.max(1)])
        #expect(child.send(5) == .max(1))
        #expect(subscriber.values == [5])
        #expect(child.subscription?.requests == [.max(1)])
        subscriber.cancel()
    }

    @Test func flatMapGivesAChildOneMoreThroughTheReturnOfEachValueDelivered() {
        let upstream = TestPublisher<Int, Never>()
        let child = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        #expect(child.send(1) == .max(1))
        #expect(child.send(2) == .max(1))
        #expect(child.subscription?.requests == [.max(1)])
        subscriber.cancel()
    }

    @Test func flatMapQueuesAValueBeyondTheDemandAndReturnsNone() {
        let upstream = TestPublisher<Int, Never>()
        let child = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        #expect(child.send(1) == .max(1))
        #expect(child.send(2) == .none)
        #expect(subscriber.values == [1])
        subscriber.cancel()
    }

    @Test func flatMapAsksAChildForOneMoreForEachOfItsQueuedValuesDeliveredOnRequest() {
        let upstream = TestPublisher<Int, Never>()
        let child = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        child.send(1)
        child.send(2)
        child.send(3)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
        #expect(child.subscription?.requests == [.max(1), .max(1), .max(1)])
        subscriber.cancel()
    }

    @Test func flatMapRequestFromInsideReceiveOnlyAddsToTheDemand() {
        let upstream = TestPublisher<Int, Never>()
        let child = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1)) { subscriber, value in
            if value == 0 { subscriber.request(.max(2)) }
        }
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        #expect(child.send(0) == .max(1))
        #expect(child.send(1) == .max(1))
        #expect(child.send(2) == .max(1))
        #expect(child.send(3) == .none)
        #expect(subscriber.values == [0, 1, 2])
        #expect(child.subscription?.requests == [.max(1)])
        subscriber.cancel()
    }

    @Test func flatMapDeliversAValueAChildSendsFromInsideTheDownstreamsReceive() {
        let upstream = TestPublisher<TestPublisher<Int, Never>, Never>()
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2)) { _, value in
            if value == 1 { second.send(2) }
        }
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        #expect(first.send(1) == .max(1))
        #expect(subscriber.values == [1, 2])
        #expect(second.subscription?.requests == [.max(1)])
        subscriber.cancel()
    }

    @Test func flatMapPassesOnAValueAChildSendsAfterItsCompletionWhileTheStreamLives() {
        let upstream = TestPublisher<TestPublisher<Int, Never>, Never>()
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        first.finish()
        first.send(1)
        second.finish()
        upstream.finish()
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func flatMapAsksTheUpstreamForMaxPublishersEvenWhenItIsNone() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.flatMap(maxPublishers: .none) { Just($0) }.subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.none])
        subscriber.cancel()
    }

    @Test func flatMapAsksTheUpstreamForAnotherChildEachTimeAChildFinishes() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.flatMap(maxPublishers: .max(1)) { Just($0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription?.requests == [.max(1), .max(1), .max(1)])
        #expect(subscriber.values == [1, 2])
        subscriber.cancel()
    }

    @Test func flatMapCancelsTheChildrenButNotTheUpstreamThatFailed() {
        let upstream = TestPublisher<Int, TestError>()
        let child = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError(1))
        #expect(child.subscription?.cancelCount == 1)
        #expect(upstream.subscription?.cancelCount == 0)
        #expect(subscriber.log == ["sub", "failure(E1)"])
    }

    @Test func flatMapCancelsTheOtherChildrenButNotTheChildThatFailed() {
        let upstream = TestPublisher<TestPublisher<Int, TestError>, TestError>()
        let first = TestPublisher<Int, TestError>()
        let second = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        second.fail(TestError(2))
        #expect(first.subscription?.cancelCount == 1)
        #expect(second.subscription?.cancelCount == 0)
        #expect(subscriber.log == ["sub", "failure(E2)"])
    }

    @Test func flatMapDropsTheQueuedValuesWhenAChildFails() {
        let upstream = TestPublisher<Int, TestError>()
        let child = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        child.send(1)
        child.send(2)
        child.fail(TestError(3))
        #expect(subscriber.log == ["sub", "1", "failure(E3)"])
    }

    @Test func flatMapHoldsAChildValueUntilDemanded() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.flatMap { Just($0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func switchToLatestAsksTheUpstreamForEverythingAsSoonAsSubscribed() {
        let upstream = TestPublisher<TestPublisher<Int, Never>, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.switchToLatest().subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func switchToLatestCancelsTheSupersededChildAndDropsItsValues() {
        let upstream = TestPublisher<TestPublisher<Int, Never>, Never>()
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(first)
        first.send(1)
        upstream.send(second)
        first.send(2)
        second.send(3)
        #expect(subscriber.values == [1, 3])
        #expect(first.subscription?.cancelCount == 1)
        subscriber.cancel()
    }
}

@Suite struct MixedFailureFlatteningTests {
    @Test func flatMapOfAFailingUpstreamIntoChildrenThatCannotFail() {
        let upstream = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.flatMap { Just($0 * 2) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(TestError(2)))
        #expect(subscriber.log == ["sub", "2", "failure(E2)"])
    }

    @Test func flatMapOfAnUpstreamThatCannotFailIntoFailingChildren() {
        let subscriber = TrackingSubscriber<Int, TestError>()
        Just(1).flatMap { _ in Fail<Int, TestError>(error: TestError(3)) }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "failure(E3)"])
    }

    @Test func flatMapWhereNeitherCanFail() {
        let subscriber = TrackingSubscriber<Int, Never>()
        let flattened: Publishers.FlatMap<Just<Int>, Publishers.Sequence<[Int], Never>> = [1, 2].publisher.flatMap {
            Just($0)
        }
        flattened.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func switchToLatestOfAnUpstreamThatCannotFailOverFailingInners() {
        let upstream = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
        let inner = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(inner)
        inner.send(1)
        inner.send(completion: .failure(TestError(5)))
        #expect(subscriber.log == ["sub", "1", "failure(E5)"])
    }

    @Test func switchToLatestOfAFailingUpstreamOverInnersThatCannotFail() {
        let upstream = PassthroughSubject<Just<Int>, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(Just(7))
        upstream.send(completion: .failure(TestError(6)))
        #expect(subscriber.log == ["sub", "7", "failure(E6)"])
    }
}
