import Streams
import StreamsTesting
import Testing

@Suite struct CollectByTimeTests {
    @Test func byTimeEmitsWhatArrivedInEachStride() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .seconds(3))  // empty strides emit nothing
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2], [3]])
    }

    @Test func byTimeOrCountEmitsAsSoonAsAGroupIsFull() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        #expect(subscriber.values == [[1, 2], [3, 4]])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2], [3, 4], [5]])
    }

    @Test func byTimeOrCountAsksTheUpstreamForCountValuesPerGroupDemanded() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.collect(.byTimeOrCount(TestScheduler(), .seconds(1), 3)).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(6)])
        for value in 1...3 { upstream.send(value) }
        #expect(upstream.subscription?.requests == [.max(6), .max(3)])
    }

    @Test func byTimeAsksTheUpstreamForEverything() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.collect(.byTime(TestScheduler(), .seconds(1))).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
    }

    @Test func aGroupWaitsForDemandInsteadOfBeingDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>(initialDemand: .max(1))
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1]])
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1], [2]])
    }

    @Test func finishingEmitsThePartialGroupFirst() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(subscriber.log == ["sub", "[1]", "finished"])
        #expect(scheduler.scheduledActionCount == 0)
    }

    @Test func aFailureIsForwardedAtOnceAndThePartialGroupDiscarded() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<[Int], TestError>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(TestError(2)))
        #expect(subscriber.log == ["sub", "failure(E2)"])
    }

    @Test func cancellingStopsTheTimerAndCancelsTheUpstream() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(scheduler.scheduledActionCount == 0)
    }

    @Test func theSubscriberIsReleasedOnceTheStreamEnds() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.collect(.byTime(scheduler, .seconds(1))).map { $0.count }.subscribe(probe)
                subject.send(1)
                subject.send(completion: .finished)
            })
    }
}
