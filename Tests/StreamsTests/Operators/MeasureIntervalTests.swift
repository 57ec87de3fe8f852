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

    @Test func demandAndCancellationGoStraightToTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>(
            initialDemand: .max(1), demandPerValue: .max(3))
        upstream.measureInterval(using: TestScheduler()).subscribe(subscriber)
        #expect(upstream.send(1) == .max(3))
        subscriber.cancel()
        #expect(upstream.subscription?.requests == [.max(1)])
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values.count == 1)
    }

    @Test func theSubscriberIsReleasedOnceTheStreamEnds() {
        let subject = PassthroughSubject<Int, TestError>()
        #expect(probeIsReleasedAtOnce { probe in
            subject.measureInterval(using: TestScheduler()).map { $0.magnitude }.subscribe(probe)
            subject.send(completion: .finished)
        })
    }
}
