import Streams
import Testing

@Suite struct SequenceTests {
    @Test func aSequencesSubscriptionShowsAnEmptySequenceOnceItEnded() throws {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let sequence = Mirror(reflecting: subscription).children.first { $0.label == "sequence" }?.value
        #expect(sequence.map { String(describing: $0) } == "[]")
    }

    @Test func emptySequenceFinishesImmediately() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        [Int]().publisher.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func valuesNeverExceedDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2, 3, 4].publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func finishesRightAfterTheLastValueWithoutMoreDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2].publisher.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "3", "4", "5", "finished"])
    }

    @Test func requestFromInsideReceiveIsAddedNotRecursed() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1)) { tracker, value in
            if value < 3 { tracker.request(.max(1)) }
        }
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions.isEmpty)
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TrackingSubscriber<Int, Never>() { tracker, value in
            if value == 2 { tracker.cancel() }
        }
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2"])
    }

    @Test func eachSubscriptionIteratesAfresh() {
        let publisher = [1, 2].publisher
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }

    @Test func sequencePublishersAreEqualWhenTheirSequencesAre() {
        #expect([1, 2].publisher == [1, 2].publisher)
        #expect([1, 2].publisher != [2, 1].publisher)
    }
}
