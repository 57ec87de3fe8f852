import Streams
import StreamsTesting
import Testing

@Suite struct DebounceTests {
    /// Combine's documented timeline: values 0…5 at 0, 0.25, 1, 1.25, 1.5, 2 s with a 0.5 s
    /// debounce give 1, 4 and 5.
    @Test func aBurstYieldsItsLastValueOnceTheDueTimePassesQuietly() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.debounce(for: .milliseconds(500), scheduler: scheduler).subscribe(subscriber)
        for (value, at) in [(0, 0), (1, 250), (2, 1000), (3, 1250), (4, 1500), (5, 2000)] {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(at)))
            subject.send(value)
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 4, 5])
    }

    @Test func theValueIsDeliveredExactlyAtTheDueTime() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1])
    }

    @Test func aValueTheDownstreamHasNoDemandForIsDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(5))
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 3])
    }

    @Test func theUpstreamIsAskedForEverythingAfterTheDownstreamHasItsSubscription() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.debounce(for: .seconds(1), scheduler: TestScheduler()).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
        #expect(subscriber.log == ["sub"])
    }

    @Test func finishingDropsAWaitingValueAndIsDeliveredOnTheScheduler() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.log == ["sub"])
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func cancellingCancelsTheUpstreamAndDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func theSubscriberIsReleasedOnceTheCompletionIsDelivered() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(probe)
                subject.send(1)
                subject.send(completion: .failure(TestError(1)))
                scheduler.advance(by: .seconds(1))
            })
    }

    @Test func eachValueStartsARepeatingTimerAndTheCompletionIsScheduledWithoutOptions() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.debounce(for: .nanoseconds(10), scheduler: scheduler).subscribe(subscriber)
        #expect(scheduler.log.isEmpty)
        _ = upstream.send(1)
        scheduler.clock.advance(by: .nanoseconds(3))
        _ = upstream.send(2)
        scheduler.clock.advance(by: .nanoseconds(100))
        upstream.finish()
        #expect(
            scheduler.log == [
                "now", "tolerance", "repeat(10, every: 10)", "now", "tolerance", "repeat(13, every: 10)", "schedule",
            ])
        scheduler.clock.advance()
        #expect(subscriber.log == ["sub", "2", "finished"])
    }

    @Test func aCompletionBeforeTheSubscriptionReachesNoOne() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        let scheduler = TestScheduler()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.subscriber?.receive(completion: .finished)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.log.isEmpty)
    }
}
