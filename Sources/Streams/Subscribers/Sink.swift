import Synchronization

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// After cancellation or completion no closure is called again, and both closures are
    /// released (breaking reference cycles through captured objects). A second subscription is
    /// cancelled immediately.
    ///
    /// Thread-safety: the subscription and the closures live in a lock; values may arrive on
    /// any thread and `cancel()` may be called from any thread, even from inside a closure.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        @usableFromInline
        struct State {
            @usableFromInline var subscription: Subscription?
            @usableFromInline var terminated = false
            @usableFromInline var receiveValue: ((Input) -> Void)?
            @usableFromInline var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        }

        @usableFromInline let state: Locked<State>

        /// The closure to execute on receipt of a value (a no-op once cancelled or completed).
        public var receiveValue: (Input) -> Void {
            state.withLock { $0.receiveValue } ?? { _ in }
        }

        /// The closure to execute on completion (a no-op once cancelled or completed).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            state.withLock { $0.receiveCompletion } ?? { _ in }
        }

        /// `"Sink"`.
        public var description: String { "Sink" }

        /// Creates a sink with the given completion and value closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            state = Locked(State(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
        }

        /// Stores the subscription and requests `.unlimited`; cancels any second subscription.
        public func receive(subscription: Subscription) {
            let accepted = state.withLock { state -> Bool in
                guard state.subscription == nil, !state.terminated else { return false }
                state.subscription = subscription
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
            let body = state.withLock { $0.receiveValue }
            body?(value)
            return .none
        }

        /// Calls `receiveCompletion` once, then releases both closures.
        public func receive(completion: Subscribers.Completion<Failure>) {
            let body = state.withLock { state -> ((Subscribers.Completion<Failure>) -> Void)? in
                defer {
                    state.terminated = true
                    state.subscription = nil
                    state.receiveValue = nil
                    state.receiveCompletion = nil
                }
                return state.receiveCompletion
            }
            body?(completion)
        }

        /// Cancels the upstream subscription; no closure is called afterwards. Idempotent.
        public func cancel() {
            let taken = state.withLock { state -> (Subscription?, Any?) in
                defer {
                    state.terminated = true
                    state.subscription = nil
                    state.receiveValue = nil
                    state.receiveCompletion = nil
                }
                return (state.subscription, (state.receiveValue, state.receiveCompletion))
            }
            taken.0?.cancel()
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour; requests unlimited values.
    ///
    /// - Returns: A cancellable that cancels the subscription when cancelled or deinitialised.
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
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
