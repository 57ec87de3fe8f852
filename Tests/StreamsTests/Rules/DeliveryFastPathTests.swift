import Dispatch
import Locking
import Streams
import Synchronization
import Testing

/// The outbox behind subjects, merge/flatMap/switchToLatest and zip/combineLatest delivers a
/// value at once when nobody is delivering, nothing is queued and there is demand (the fast
/// path), and queues it otherwise. These check that both paths keep the contract: a value pushed
/// from inside `receive(_:)` waits until that call returns, order is kept across the two paths,
/// and demand is never exceeded, also with many senders at once.
@Suite struct DeliveryFastPathTests {
    /// Counts how deep inside `receive(_:)` the subscriber is, to catch a nested delivery.
    final class Depth: @unchecked Sendable {
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)

        func enter() {
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
        }

        func leave() {
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test func subjectValueSentFromInsideReceiveArrivesAfterThatCallReturns() {
        let subject = PassthroughSubject<Int, Never>()
        let depth = Depth()
        let seenBeforeReturn = Atomic<Int>(-1)
        let subscriber = TrackingSubscriber<Int, Never>(onValue: { tracker, value in
            depth.enter()
            defer { depth.leave() }
            if value == 1 {
                subject.send(2)  // queued: this call has not returned yet
                seenBeforeReturn.store(tracker.values.count, ordering: .relaxed)
            }
        })
        subject.subscribe(subscriber)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.send(1)
        subject.send(3)  // the fast path again, after the queue drained
        #expect(seenBeforeReturn.load(ordering: .relaxed) == 1)
        #expect(subscriber.values == [1, 2, 3])
        #expect(depth.overlaps.load(ordering: .relaxed) == 0)
    }

    @Test func completionSentFromInsideReceiveFollowsTheQueuedValues() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(onValue: { _, value in
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
            }
        })
        subject.subscribe(subscriber)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.send(1)
        subject.send(4)  // after the completion: ignored
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func subjectFastPathKeepsDemandReturnedFromReceive() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.subscribe(subscriber)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        for value in 0..<5 { subject.send(value) }
        #expect(subscriber.values == [0, 1, 2, 3, 4])
    }

    @Test func subjectFastPathDropsValuesBeyondDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        subject.subscribe(subscriber)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        for value in 0..<5 { subject.send(value) }
        subscriber.request(.max(1))
        subject.send(5)
        subject.send(6)
        #expect(subscriber.values == [0, 1, 5])
    }

    @Test func mergeValueSentFromInsideReceiveArrivesAfterThatCallReturnsInOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let depth = Depth()
        let seenBeforeReturn = Atomic<Int>(-1)
        let subscriber = TrackingSubscriber<Int, Never>(onValue: { tracker, value in
            depth.enter()
            defer { depth.leave() }
            if value == 1 {
                b.send(2)
                a.send(3)
                seenBeforeReturn.store(tracker.values.count, ordering: .relaxed)
            }
        })
        a.merge(with: b).subscribe(subscriber)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        a.send(1)
        b.send(4)
        #expect(seenBeforeReturn.load(ordering: .relaxed) == 1)
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(depth.overlaps.load(ordering: .relaxed) == 0)
    }

    @Test func flatMapWithLimitedDemandQueuesThenDeliversOnRequest() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.flatMap { Just($0) }.subscribe(subscriber)
        defer { subscriber.cancel() }  // ends the stream if the test left it open
        subject.send(1)
        subject.send(2)  // its child waits for demand
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        subject.send(3)
        subscriber.request(.unlimited)
        subject.send(4)
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func zipValueSentFromInsideReceiveArrivesAfterThatCallReturns() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let depth = Depth()
        let pairs = Atomic<Int>(0)
        let seenBeforeReturn = Atomic<Int>(-1)
        let cancellable = left.zip(right).sink { pair in
            depth.enter()
            defer { depth.leave() }
            pairs.add(1, ordering: .relaxed)
            if pair.0 == 1 {
                left.send(2)
                right.send(2)
                seenBeforeReturn.store(pairs.load(ordering: .relaxed), ordering: .relaxed)
            }
        }
        left.send(1)
        right.send(1)
        #expect(seenBeforeReturn.load(ordering: .relaxed) == 1)
        #expect(pairs.load(ordering: .relaxed) == 2)
        #expect(depth.overlaps.load(ordering: .relaxed) == 0)
        cancellable.cancel()
    }

    @Test func concurrentSendersNeverExceedDemand() {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let checker = ConcurrencyStressTests.ContractChecker<Int>(demand: 100)
            subject.subscribe(checker)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for value in 0..<100 { subject.send(value) }
            }
            #expect(checker.values.load(ordering: .acquiring) == 100)
            checker.request(10)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for value in 0..<20 { subject.send(value) }
            }
            #expect(checker.values.load(ordering: .acquiring) == 110)
            #expect(checker.violations.load(ordering: .acquiring) == 0)
        }
    }

    @Test func concurrentSendersIntoMergeNeverExceedDemandOrOverlap() {
        for _ in 0..<20 {
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let checker = ConcurrencyStressTests.ContractChecker<Int>(demand: 50)
            Publishers.MergeMany(subjects).subscribe(checker)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                for value in 0..<100 { subjects[index].send(value) }
            }
            // Each child is asked for one value at a time, so some wait in the outbox for demand.
            #expect(checker.values.load(ordering: .acquiring) <= 50)
            checker.request(1000)
            #expect(checker.values.load(ordering: .acquiring) <= 1050)
            #expect(checker.violations.load(ordering: .acquiring) == 0)
            checker.subscription?.cancel()
        }
    }

    /// Cancels from inside its first `receive(_:)`, and counts what arrives after that.
    final class CancelInsideReceive: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        private let subscription = Locked<UncheckedBox<Subscription?>>(UncheckedBox(nil))
        let received = Atomic<Int>(0)

        func receive(subscription: Subscription) {
            self.subscription.withLock { $0 = UncheckedBox(subscription) }
            subscription.request(.unlimited)
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            received.add(1, ordering: .relaxed)
            let subscription = self.subscription.withLock { state -> UncheckedBox<Subscription?> in
                defer { state = UncheckedBox(nil) }
                return state
            }
            subscription.value?.cancel()
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Test func cancelFromInsideReceiveReleasesTheDownstreamOnceTheCallReturns() {
        let subject = PassthroughSubject<Int, Never>()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        weak var viaSubject: CancelInsideReceive?
        weak var viaMerge: CancelInsideReceive?
        do {
            let first = CancelInsideReceive()
            let second = CancelInsideReceive()
            viaSubject = first
            viaMerge = second
            subject.map { $0 }.subscribe(first)
            a.merge(with: b).subscribe(second)
        }
        #expect(viaSubject != nil)
        #expect(viaMerge != nil)
        subject.send(1)
        a.send(1)
        // The delivering thread released them when their receive returned.
        #expect(viaSubject == nil)
        #expect(viaMerge == nil)
        subject.send(2)
        b.send(2)
    }

    /// Values queued by other threads while one delivers on the fast path are never stranded:
    /// the delivering thread gives its claim up only if nothing was queued meanwhile.
    @Test func valuesQueuedDuringAFastPathDeliveryAreAllDelivered() {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let direct = ConcurrencyStressTests.ContractChecker<Int>()
            let merged = ConcurrencyStressTests.ContractChecker<Int>()
            subject.subscribe(direct)
            Publishers.MergeMany(subjects).subscribe(merged)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                for value in 0..<250 {
                    subject.send(value)
                    subjects[index].send(value)
                }
            }
            #expect(direct.values.load(ordering: .acquiring) == 1000)
            #expect(merged.values.load(ordering: .acquiring) == 1000)
            #expect(direct.violations.load(ordering: .acquiring) == 0)
            #expect(merged.violations.load(ordering: .acquiring) == 0)
            // End the streams: a checker keeps its subscription, and a live stream its
            // subscriber (the lifetime rule), so a stream left open would be a cycle.
            subject.send(completion: .finished)
            for upstream in subjects { upstream.send(completion: .finished) }
            #expect(direct.completions.load(ordering: .acquiring) == 1)
            #expect(merged.completions.load(ordering: .acquiring) == 1)
        }
    }
}
