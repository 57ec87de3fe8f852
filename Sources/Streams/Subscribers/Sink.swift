import Locking
import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// After cancellation or completion no closure is called again, and both closures are
    /// released (breaking reference cycles through captured objects). A second subscription is
    /// cancelled immediately.
    ///
    /// Thread-safety: values may arrive on any thread and `cancel()` may be called from any
    /// thread, even from inside a closure. (Dynamic exclusivity checks are disabled on the two
    /// closure fields because this protocol, not a Swift access, guarantees exclusivity.) The
    /// per-value path uses one non-generic atomic word
    /// (bit 0: a closure is running, bit 1: terminated) instead of a lock: the thread that sets
    /// bit 0 owns the closures until it clears it, and whoever terminates while nobody is
    /// running releases them. The subscription itself is kept under a lock.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable
    {
        @usableFromInline static var running: Int { 1 }
        @usableFromInline static var terminated: Int { 2 }

        @usableFromInline let flags = Atomic<Int>(0)
        // Both handlers are owned by whoever holds `running`.
        @exclusivity(unchecked) @usableFromInline var valueHandler: ((Input) -> Void)?
        @exclusivity(unchecked) @usableFromInline var completionHandler: ((Subscribers.Completion<Failure>) -> Void)?
        private let subscription = Locked(SubscriptionSlot())  // a slot, not `Subscription?` (see SubscriptionSlot)

        /// The closure to execute on receipt of a value (a no-op once cancelled or completed,
        /// or while another call is in progress).
        public var receiveValue: (Input) -> Void {
            withHandlers { $0.valueHandler } ?? { _ in }
        }

        /// The closure to execute on completion (a no-op once cancelled or completed, or while
        /// another call is in progress).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            withHandlers { $0.completionHandler } ?? { _ in }
        }

        /// `"Sink"`.
        public var description: String { "Sink" }

        /// Creates a sink with the given completion and value closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.valueHandler = receiveValue
            self.completionHandler = receiveCompletion
        }

        /// Stores the subscription and requests `.unlimited`; cancels any second subscription.
        public func receive(subscription: Subscription) {
            let accepted = self.subscription.withLock { stored -> Bool in
                guard !stored.isSet, flags.load(ordering: .acquiring) & Self.terminated == 0 else { return false }
                stored = SubscriptionSlot(subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Calls `receiveValue` unless cancelled or completed. Returns `.none`.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            guard flags.compareExchange(expected: 0, desired: Self.running, ordering: .acquiring).exchanged else {
                return .none
            }
            valueHandler?(value)
            if !flags.compareExchange(expected: Self.running, desired: 0, ordering: .releasing).exchanged {
                // Cancelled while the closure ran (possibly from inside it): clean up for it.
                releaseHandlers()
                flags.store(Self.terminated, ordering: .releasing)
            }
            return .none
        }

        /// Calls `receiveCompletion` once, then releases both closures.
        public func receive(completion: Subscribers.Completion<Failure>) {
            guard flags.compareExchange(expected: 0, desired: Self.running, ordering: .acquiring).exchanged else {
                return
            }
            let handler = completionHandler
            releaseHandlers()
            let dropped = subscription.withLock { $0.take() }
            _ = dropped
            flags.store(Self.terminated, ordering: .releasing)
            handler?(completion)
        }

        /// Cancels the upstream subscription; no closure is called afterwards. Idempotent.
        public func cancel() {
            let old = flags.bitwiseOr(Self.terminated, ordering: .acquiringAndReleasing).oldValue
            guard old & Self.terminated == 0 else { return }
            if old & Self.running == 0 {
                releaseHandlers()  // nobody is running a closure, and nobody can start one now
            }
            let upstream = subscription.withLock { $0.take() }
            upstream.cancel()
        }

        @usableFromInline
        func releaseHandlers() {
            valueHandler = nil
            completionHandler = nil
        }

        private func withHandlers<T>(_ body: (Sink) -> T?) -> T? {
            guard flags.compareExchange(expected: 0, desired: Self.running, ordering: .acquiring).exchanged else {
                return nil
            }
            let result = body(self)
            if !flags.compareExchange(expected: Self.running, desired: 0, ordering: .releasing).exchanged {
                releaseHandlers()
                flags.store(Self.terminated, ordering: .releasing)
            }
            return result
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour; requests unlimited values.
    ///
    /// - Returns: A cancellable that cancels the subscription when cancelled or deinitialised.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber that calls `receiveValue` for every value of a publisher that
    /// cannot fail; requests unlimited values.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
