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
        child.send(5)
        #expect(subscriber.values == [5])
        #expect(child.subscription?.requests == [.max(1), .max(1)])
        subscriber.cancel()
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
