import Streams
import StreamsTesting
import Testing

@Suite struct ThrottleTests {
    private func run(latest: Bool, demand: Subscribers.Demand = .unlimited) -> TrackingSubscriber<Int, Never> {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: demand)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(subscriber)
        // 1 at 0 s; 2, 3, 4 inside the first interval; 5 long after.
        for (value, at) in [(1, 0), (2, 200), (3, 400), (4, 600), (5, 3000)] {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(at)))
            subject.send(value)
        }
        scheduler.advance(by: .seconds(5))
        return subscriber
    }

    @Test func latestPublishesTheFirstValueAtOnceThenTheLatestOfEachInterval() {
        #expect(run(latest: true).values == [1, 4, 5])
    }

    @Test func notLatestPublishesTheFirstValueOfEachInterval() {
        #expect(run(latest: false).values == [1, 2, 5])
    }

    @Test func theFirstValueIsDeliveredOnTheSchedulerWithoutWaiting() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.values == [1])
    }

    @Test func valuesArrivingWithoutDemandAreDropped() {
        #expect(run(latest: true, demand: .max(1)).values == [1])
    }

    @Test func finishingIsDeliveredAfterAWaitingValue() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .finished)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.log == ["sub", "1"])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func cancellingCancelsTheUpstreamAndDropsAWaitingValue() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func theSubscriberIsReleasedOnceTheCompletionIsDelivered() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(probe)
                subject.send(1)
                subject.send(completion: .finished)
                scheduler.advance(by: .seconds(1))
            })
    }

    @Test func theClockIsReadAtCreationSubscriptionAndEachEventAsCombineReadsIt() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: true).subscribe(subscriber)
        #expect(scheduler.log == ["now", "now"])
        _ = upstream.send(1)
        #expect(scheduler.log == ["now", "now", "now", "schedule"])
        scheduler.clock.advance()
        #expect(scheduler.log == ["now", "now", "now", "schedule", "now"])
        _ = upstream.send(2)
        #expect(scheduler.log == ["now", "now", "now", "schedule", "now", "now", "tolerance", "after(10)"])
    }

    @Test func theUpstreamIsAskedForUnlimitedBeforeTheDownstreamGetsItsSubscription() {
        let upstream = TestPublisher<Int, Never>()
        var requestsSeenBySubscriber: [Subscribers.Demand] = []
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.onSubscribe = { _ in }
        upstream.throttle(for: .seconds(1), scheduler: TestScheduler(), latest: false)
            .handleEvents(receiveSubscription: { _ in requestsSeenBySubscriber = upstream.subscription?.requests ?? [] }
            )
            .subscribe(subscriber)
        #expect(requestsSeenBySubscriber == [.unlimited])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func aCompletionBeforeTheSubscriptionReachesNoOne() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        let scheduler = TestScheduler()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.subscriber?.receive(completion: .finished)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.log.isEmpty)
    }
}
