import Streams
import Testing

@Suite struct JustFailEmptyTests {
    @Test func justSendsNothingWithoutDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Just(7).subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func justSendsValueThenFinishedOnceDemandArrives() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Just(7).subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "7", "finished"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "7", "finished"])
    }

    @Test func justWithUnlimitedDemandDeliversInsideSubscribe() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(1).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func justCancelledBeforeDemandSendsNothing() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub"])
    }

    @Test func failSendsFailureWithoutDemand() {
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        Fail(error: TestError(3)).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "failure(E3)"])
    }

    @Test func emptyFinishesImmediatelyByDefault() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().subscribe(subscriber)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func emptyThatDoesNotCompleteSendsOnlyTheSubscription() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
    }

    @Test func deferredCreatesAPublisherPerSubscription() {
        final class Counter: @unchecked Sendable { var count = 0 }
        let counter = Counter()
        let deferred = Deferred { () -> Just<Int> in
            counter.count += 1
            return Just(counter.count)
        }
        #expect(counter.count == 0)
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        deferred.subscribe(first)
        deferred.subscribe(second)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }
}
