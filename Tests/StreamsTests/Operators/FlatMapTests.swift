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
}
