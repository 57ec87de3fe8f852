import Streams
import StreamsTesting
import Testing

@Suite struct DelayTests {
    @Test func valuesArriveAfterTheIntervalKeepingTheirSpacing() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .milliseconds(500))
        subject.send(2)
        scheduler.advance(by: .milliseconds(499))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [1, 2])
    }

    @Test func finishingIsDelayedByTheInterval() {
        let scheduler = TestScheduler()
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(1).delay(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.log == ["sub"])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func aFailureIsDelayedAfterTheValuesBeforeIt() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError(3))
        #expect(subscriber.log == ["sub"])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.log == ["sub", "1", "failure(E3)"])
    }

    @Test func demandGoesToTheUpstreamAndReturnedDemandIsRequestedAfterTheDelivery() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.subscription?.requests == [.max(1)])
        scheduler.advance(by: .seconds(1))
        #expect(upstream.subscription?.requests == [.max(1), .max(2)])
    }

    @Test func aCancelledSubscriberGetsNothingAlreadyScheduled() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        subscriber.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func theSubscriberIsReleasedOnceTheDelayedCompletionIsDelivered() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(probe)
                subject.send(1)
                subject.send(completion: .finished)
                scheduler.advance(by: .seconds(1))
            })
    }

    @Test func nothingIsScheduledAfterTheUpstreamCompleted() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.delay(for: .nanoseconds(5), tolerance: .zero, scheduler: scheduler).subscribe(subscriber)
        upstream.finish()
        upstream.finish()
        _ = upstream.send(1)
        #expect(scheduler.log == ["now", "after(5)"])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func nothingIsScheduledAfterACancel() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.delay(for: .nanoseconds(5), tolerance: .zero, scheduler: scheduler).subscribe(subscriber)
        subscriber.cancel()
        _ = upstream.send(1)
        upstream.finish()
        #expect(scheduler.log.isEmpty)
    }
}
