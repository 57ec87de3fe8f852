/// A type-erasing subscriber.
///
/// Forwards every call to the wrapped subscriber (or to the closures it was created with) and
/// keeps the wrapped subscriber's ``combineIdentifier``.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline let receiveSubscriptionBody: ((Subscription) -> Void)?
    @usableFromInline let receiveValueBody: ((Input) -> Subscribers.Demand)?
    @usableFromInline let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

    /// What the eraser shows in descriptions and mirrors: the wrapped subscriber (or the
    /// subject's forwarder), or a name for closure-based instances.
    @usableFromInline let shown: Any

    /// The identifier of the wrapped subscriber, or a fresh one for closure-based instances.
    public let combineIdentifier: CombineIdentifier

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = s.combineIdentifier
        shown = s
        receiveSubscriptionBody = { s.receive(subscription: $0) }
        receiveValueBody = { s.receive($0) }
        receiveCompletionBody = { s.receive(completion: $0) }
    }

    /// Creates a type-erasing subscriber that forwards to a subject: the first subscription is
    /// passed to `send(subscription:)` (the subjects of this module then request `.unlimited`
    /// once they have demand), values to `send(_:)` and the first completion to
    /// `send(completion:)`. Like any subscriber it takes one subscription: later ones are
    /// cancelled, and nothing is forwarded after the completion. Thread-safe.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        let forwarder = SubjectSubscriber(subject: s)
        combineIdentifier = forwarder.combineIdentifier
        shown = forwarder
        receiveSubscriptionBody = { forwarder.receive(subscription: $0) }
        receiveValueBody = { forwarder.receive($0) }
        receiveCompletionBody = { forwarder.receive(completion: $0) }
    }

    /// Creates a type-erasing subscriber that executes the provided closures. A `nil` closure
    /// means "do nothing" (and, for values, return `.none`).
    public init(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        shown = "Anonymous AnySubscriber"
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
    }

    /// The wrapped subscriber's description, or `"Anonymous AnySubscriber"` for closure-based
    /// instances.
    public var description: String { String(describing: shown) }

    /// The wrapped subscriber's mirror (a closure-based instance mirrors its description).
    public var customMirror: Mirror { Mirror(reflecting: shown) }

    /// The same as ``description``.
    public var playgroundDescription: Any { description }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: Subscription) {
        receiveSubscriptionBody?(subscription)
    }

    /// Forwards the value and returns the wrapped subscriber's extra demand.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        receiveValueBody?(value) ?? .none
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionBody?(completion)
    }
}
