import Locking
import Synchronization

extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// Requests `.unlimited` on subscription and keeps a strong reference to the object until
    /// completion or cancellation. Thread-safety: state lives in a lock; the assignment runs
    /// outside it on the thread the value arrives on.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
        /// `Assign` cannot receive failures.
        public typealias Failure = Never

        private struct State {
            var object: Root?
            var subscription: Subscription?
            var isTerminated = false
        }

        private let state: Locked<State>

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object that contains the property to assign (`nil` after completion or cancel).
        public var object: Root? { state.withLock { $0.object } }

        /// `"Assign <Root>."`.
        public var description: String { "Assign \(Root.self)." }

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.keyPath = keyPath
            state = Locked(State(object: object))
        }

        /// Stores the subscription and requests `.unlimited`; cancels any second subscription.
        public func receive(subscription: Subscription) {
            let accepted = state.withLock { state -> Bool in
                guard state.subscription == nil, !state.isTerminated else { return false }
                state.subscription = subscription
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Assigns the value to the object's property. Returns `.none`.
        public func receive(_ value: Input) -> Subscribers.Demand {
            // As Combine's, a value before the subscription (which breaks the contract) is
            // not assigned.
            if let object = state.withLock({ $0.subscription == nil ? nil : $0.object }) {
                object[keyPath: keyPath] = value
            }
            return .none
        }

        /// Releases the object.
        public func receive(completion: Subscribers.Completion<Never>) {
            let dropped = state.withLock { state -> Root? in
                defer {
                    state.isTerminated = true
                    state.object = nil
                    state.subscription = nil
                }
                return state.object
            }
            _ = dropped
        }

        /// Cancels the upstream subscription and releases the object. Idempotent.
        public func cancel() {
            let taken = state.withLock { state -> (Subscription?, Root?) in
                defer {
                    state.isTerminated = true
                    state.object = nil
                    state.subscription = nil
                }
                return (state.subscription, state.object)
            }
            taken.0?.cancel()
        }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// The object is retained until the publisher completes or the returned cancellable is
    /// cancelled.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
