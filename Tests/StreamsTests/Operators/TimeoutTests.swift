import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutTests {
    @Test func aSilentUpstreamIsCancelledAndTheStreamFinishesAtTheInterval() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.timeout(.seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(1999))
        #expect(subscriber.log == ["sub"])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.log == ["sub", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func aCustomErrorFailsTheStream() {
        let scheduler = TestScheduler()
        let subscriber = TrackingSubscriber<Int, TestError>()
        Empty<Int, TestError>(completeImmediately: false)
            .timeout(.seconds(1), scheduler: scheduler, customError: { TestError(7) })
            .subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.log == ["sub", "failure(E7)"])
    }

    @Test func eachValueRestartsTheWait() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...3 {
            scheduler.advance(by: .milliseconds(900))
            subject.send(value)
        }
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.log == ["sub", "1", "2", "3"])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.log == ["sub", "1", "2", "3", "finished"])
    }

    @Test func valuesAndTheCompletionAreDeliveredOnTheScheduler() {
        let scheduler = TestScheduler()
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        scheduler.advance()
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func demandGoesToTheUpstreamAndReturnedDemandIsRequestedAfterTheDelivery() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(2)])
        upstream.send(1)
        scheduler.advance()
        #expect(upstream.subscription?.requests == [.max(2), .max(1)])
    }

    @Test func cancellingStopsTheTimer() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        subscriber.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func theSubscriberIsReleasedOnceItTimedOut() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.timeout(.seconds(1), scheduler: scheduler).subscribe(probe)
                scheduler.advance(by: .seconds(1))
            })
    }

    @Test func theWaitIsARepeatingTimerStartedAtTheSubscriptionAndRestartedByTheFirstRequest() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.timeout(.nanoseconds(10), scheduler: scheduler).subscribe(subscriber)
        let timer = ["now", "tolerance", "repeat(10, every: 10)"]
        #expect(scheduler.log == timer + timer)
        subscriber.request(.max(1))
        #expect(scheduler.log == timer + timer)
    }

    @Test func eachValueRestartsTheTimerBeforeItsDeliveryIsScheduled() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.timeout(.nanoseconds(10), scheduler: scheduler).subscribe(subscriber)
        scheduler.clock.advance(by: .nanoseconds(4))
        _ = upstream.send(1)
        #expect(
            scheduler.log == [
                "now", "tolerance", "repeat(10, every: 10)", "now", "tolerance", "repeat(14, every: 10)", "schedule",
            ])
    }

    @Test func aZeroRequestIsPassedToTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.timeout(.seconds(1), scheduler: TestScheduler()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription?.requests == [.none])
    }

    @Test func aSubscriptionAfterTheDownstreamCancelledIsLeftAlone() throws {
        let upstream = ManualPublisher<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: TestScheduler()).subscribe(TrackingSubscriber<Int, Never>())
        try #require(upstream.operatorSubscription).cancel()
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.requests.isEmpty && late.cancelCount == 0)
    }
}
