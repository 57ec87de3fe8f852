import Streams
import Testing

@Suite struct BufferTests {
    @Test func keepFullAsksForTheSizeThenOneMorePerValueTaken() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(3)])
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(upstream.subscription?.requests == [.max(3), .max(1)])
    }

    @Test func byRequestAsksForEverything() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
        for value in 1...3 { upstream.send(value) }
        #expect(subscriber.values == [1])
        #expect(upstream.subscription?.requests == [.unlimited])
    }

    @Test func valuesLeaveOnlyAsTheDownstreamAsks() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func dropNewestKeepsTheFirstValues() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subscriber.request(.unlimited)
        #expect(subscriber.values == [1, 2])
    }

    @Test func dropOldestKeepsTheLastValues() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subscriber.request(.unlimited)
        #expect(subscriber.values == [4, 5])
    }

    @Test func customErrorCancelsTheUpstreamAndFailsAfterTheBufferedValues() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { TestError(5) }).subscribe(subscriber)
        for value in 1...3 { upstream.send(value) }
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(5))
        #expect(subscriber.log == ["sub", "1", "2", "failure(E5)"])
    }

    @Test func aFullBuffersFailureGoesAtTheNextRequestAfterTheValuesItLetsThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .customError { TestError(5) }).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        subscriber.request(.max(2))
        #expect(subscriber.log == ["sub", "1", "2", "failure(E5)"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "2", "failure(E5)"])
    }

    @Test func keepFullGivesOneMoreThroughTheReturnOfAValueDeliveredAtOnce() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.subscription?.requests == [.max(3)])
        subscriber.cancel()
    }

    @Test func theUpstreamIsAskedBeforeTheDownstreamGetsItsSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        final class OrderCheck: Subscription, @unchecked Sendable {
            var subscriptionsSeenAtRequest: Int?
            let subscriber: TrackingSubscriber<Int, Never>
            init(_ subscriber: TrackingSubscriber<Int, Never>) { self.subscriber = subscriber }
            func request(_ demand: Subscribers.Demand) { subscriptionsSeenAtRequest = subscriber.subscriptionCount }
            func cancel() {}
        }
        let check = OrderCheck(subscriber)
        upstream.subscriber?.receive(subscription: check)
        #expect(check.subscriptionsSeenAtRequest == 0)
        #expect(subscriber.subscriptionCount == 1)
        subscriber.cancel()
    }

    @Test func finishingWaitsUntilTheBufferIsEmpty() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func aFailureWithDemandComesAfterTheBufferedValues() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.request(.max(1))
        upstream.fail(TestError(1))
        #expect(subscriber.log == ["sub", "1", "failure(E1)"])
    }

    @Test func aSubscriberMayAskForMoreFromInsideReceive() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none) { subscriber, _ in
            subscriber.request(.max(1))
        }
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        subject.send(4)
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func cancellingCancelsTheUpstreamOnceAndDeliversNothingMore() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func theSubscriberIsReleasedOnceTheStreamEnds() {
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            probeIsReleasedAtOnce { probe in
                subject.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest).subscribe(probe)
                subject.send(1)
                subject.send(completion: .finished)
            })
    }

    @Test func aBufferOfSizeZeroIsAcceptedAndAlwaysFull() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [])
        upstream.send(1)
        subscriber.request(.max(1))
        upstream.finish()
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func theFullBufferErrorIsMadeOutsideTheLock() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        var reentered = false
        let buffered = upstream.buffer(
            size: 1, prefetch: .byRequest,
            whenFull: .customError {
                // Calling back into the operator from the closure must not deadlock.
                if !reentered {
                    reentered = true
                    upstream.send(99)
                }
                return TestError(7)
            })
        buffered.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(reentered)
        #expect(upstream.subscription?.cancelCount == 1)
        // The full buffer's failure waits for the next request.
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(5))
        #expect(subscriber.log == ["sub", "1", "failure(E7)"])
        // The closure keeps the publisher, which keeps its subscribers: let them go.
        upstream.releaseSubscribers()
    }

    @Test func aCancelOrACompletionBeforeTheSubscriptionIsIgnored() throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        try #require(upstream.operatorSubscription).cancel()
        upstream.subscriber?.receive(completion: .finished)
        let subscription = TestSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(subscription.requests == [.max(2)])
        #expect(subscription.cancelCount == 0)
        #expect(subscriber.log == ["sub"])
        subscriber.cancel()
        #expect(subscription.cancelCount == 1)
    }
}
