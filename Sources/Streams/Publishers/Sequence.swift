import Locking
import Synchronization

extension Publishers {
    /// A publisher that publishes the elements of a sequence, one per unit of demand.
    ///
    /// An empty sequence finishes immediately on subscription. Otherwise the subscriber receives
    /// values as it demands them, and `.finished` right after the last one (without needing
    /// further demand). The sequence is iterated lazily, one element ahead of delivery.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's element type.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for the given sequence.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Starts a fresh iteration of ``sequence`` for the subscriber.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            // The emit closure is formed here, where the types are concrete in the caller's
            // (specialised) code, so the per-value loop does not run as unspecialised generic
            // code even though `request(_:)` is reached through the `Subscription` existential.
            let subscription = SequenceSubscription<S, Elements>(
                sequence: sequence,
                first: first,
                iterator: iterator,
                downstream: subscriber,
                emit: { $0.emit() }
            )
            subscriber.receive(subscription: subscription)
        }
    }
}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// Two sequence publishers are equal when their sequences are.
extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Swift.Sequence {
    /// A publisher that publishes this sequence's elements; it never fails.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

/// The subscription behind ``Publishers/Sequence``.
///
/// Thread-safety: the demand counter, the "emitting" flag and the "done" flag live in a
/// lock; whichever thread sets `emitting` owns `iterator`, `upcoming` and `downstream` until
/// it clears the flag (or, when not emitting, whoever sets `done` under the lock owns them).
/// While emitting, demand is kept in a local counter and cancellation is polled through an
/// atomic flag, so an unlimited stream costs no lock per value.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
    CombineReflectable, @unchecked Sendable
where Downstream.Input == Elements.Element {
    @usableFromInline
    struct State {
        @usableFromInline var demand = Subscribers.Demand.none
        @usableFromInline var isEmitting = false
        @usableFromInline var isDone = false
        @inlinable init() {}
    }

    @usableFromInline let state = Locked(State())
    @usableFromInline let isCancelled = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var iterator: Elements.Iterator
    @exclusivity(unchecked) @usableFromInline var upcoming: Elements.Element?
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
    @usableFromInline let specializedEmit: (SequenceSubscription) -> Void

    @inlinable
    init(
        sequence: Elements,
        first: Elements.Element,
        iterator: Elements.Iterator,
        downstream: Downstream,
        completion: Subscribers.Completion<Downstream.Failure> = .finished,
        isRecording: Bool = false,
        emit: @escaping (SequenceSubscription) -> Void
    ) {
        self.sequence = sequence
        self.completion = completion
        self.isRecording = isRecording
        self.upcoming = first
        self.iterator = iterator
        self.downstream = downstream
        self.specializedEmit = emit
    }

    /// Kept for the description only (a copy of the publisher's value, not its iterator).
    @usableFromInline let sequence: Elements
    /// Sent after the last element: `.finished` for a sequence, the recorded completion for a
    /// ``Record``.
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>
    /// Whether this plays a ``Record`` (named and mirrored as Combine's record subscription).
    @usableFromInline let isRecording: Bool

    /// As Combine names this subscription: after the sequence's own description while the
    /// stream is live; once it has ended, `"Sequence"` (`"Cancelled Events"` for a record).
    @usableFromInline var description: String {
        guard state.withLock({ $0.isDone }) else { return String(describing: sequence) }
        return isRecording ? "Cancelled Events" : "Sequence"
    }

    /// The sequence while the stream is live; nothing left (an empty array) once it has ended,
    /// as Combine's sequence and record subscriptions show.
    @usableFromInline var customMirror: Mirror {
        let shown: Any = state.withLock({ $0.isDone }) ? [Elements.Element]() : sequence
        let children: [Mirror.Child] =
            isRecording
            ? [("sequence", shown), ("completion", completion)]
            : [("sequence", shown)]
        return Mirror(self, children: children)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let shouldEmit = state.withLock { state -> Bool in
            guard !state.isDone else { return false }
            state.demand += demand
            guard !state.isEmitting else { return false }
            state.isEmitting = true
            return true
        }
        if shouldEmit { specializedEmit(self) }
    }

    @inlinable
    func cancel() {
        isCancelled.store(true, ordering: .releasing)
        let owner = state.withLock { state -> Bool in
            guard !state.isDone else { return false }
            state.isDone = true
            return !state.isEmitting
        }
        if owner { release() }
    }

    @inlinable
    func release() {
        downstream = nil
        upcoming = nil
    }

    /// Runs while this thread holds the emitting role. The iterator and the look-ahead element
    /// are kept in locals during the loop and written back before the role is given up.
    @inlinable
    func emit() {
        var demand = state.withLock { state -> Subscribers.Demand in
            defer { state.demand = .none }
            return state.demand
        }
        guard let downstream else { return }
        var iterator = self.iterator
        var upcoming = self.upcoming
        while true {
            while demand > 0 {
                if isCancelled.load(ordering: .acquiring) {
                    self.upcoming = nil
                    stopEmitting()
                    return
                }
                guard let value = upcoming else {
                    stopEmitting()
                    return
                }
                upcoming = iterator.next()
                if demand != .unlimited { demand -= 1 }
                let extra = downstream.receive(value)
                if upcoming == nil {
                    self.upcoming = nil
                    finish(downstream)
                    return
                }
                demand += extra
            }
            self.iterator = iterator
            self.upcoming = upcoming
            let more = state.withLock { state -> (demand: Subscribers.Demand, done: Bool) in
                if !state.isDone && state.demand > 0 {
                    defer { state.demand = .none }
                    return (state.demand, false)
                }
                state.isEmitting = false
                return (.none, state.isDone)
            }
            if more.demand == .none {
                // Cancelled while we were emitting: cancel() left the clean-up to us.
                if more.done { release() }
                return
            }
            demand = more.demand
        }
    }

    @inlinable
    func stopEmitting() {
        state.withLock { state in
            state.isDone = true
            state.isEmitting = false
        }
        release()
    }

    @inlinable
    func finish(_ downstream: Downstream) {
        let shouldComplete = state.withLock { state -> Bool in
            defer {
                state.isDone = true
                state.isEmitting = false
            }
            return !state.isDone
        }
        release()
        if shouldComplete && !isCancelled.load(ordering: .acquiring) {
            downstream.receive(completion: completion)
        }
    }
}
