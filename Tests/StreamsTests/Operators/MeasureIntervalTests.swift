import Streams
import StreamsTesting
import Testing

@Suite struct MeasureIntervalTests {
    @Test func theFirstIntervalIsMeasuredFromTheSubscription() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>()
        scheduler.advance(by: .seconds(10))
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(300))
        subject.send(1)
        scheduler.advance(by: .milliseconds(1200))
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(subscriber.values == [.milliseconds(300), .milliseconds(1200), .zero])
        #expect(subscriber.isFinished)
    }

    @Test func cancellationGoesStraightToTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
            initialDemand: .max(1), demandPerValue: .max(3))
        upstream.measureInterval(using: TestScheduler()).subscribe(subscriber)
        _ = upstream.send(1)
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values.count == 1)
    }

    @Test func theSubscriberIsReleasedOnceTheStreamEnds() {
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.measureInterval(using: TestScheduler()).map { $0.magnitude }.subscribe(probe)
                subject.send(completion: .finished)
            })
    }

    @Test func theClockIsFirstReadWhenTheSubscriptionArrives() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>()
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(scheduler.log == ["now"])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func demandReturnedForAValueIsRequestedFromTheUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
            initialDemand: .max(1), demandPerValue: .max(2))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.subscription?.requests == [.max(1), .max(2)])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }
}
