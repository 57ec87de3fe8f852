/// A protocol that declares a type that can receive input from a publisher.
///
/// A subscriber first receives one ``Subscription`` through ``receive(subscription:)`` and
/// requests values with ``Subscription/request(_:)``. It then receives up to the demanded number
/// of values through ``receive(_:)`` — whose return value adds to the outstanding demand — and at
/// most one ``Subscribers/Completion``.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive. Use `Never` if it cannot receive errors.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed and may request items.
    func receive(subscription: Subscription)
    /// Tells the subscriber that the publisher has produced an element.
    ///
    /// - Returns: Additional demand, added to what is still outstanding (`.none` for no more).
    func receive(_ input: Input) -> Subscribers.Demand
    /// Tells the subscriber that the publisher has completed, normally or with an error.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of `Void` elements has produced an element.
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for types that serve as subscribers (`Subscribers.Sink`, `Subscribers.Assign`)
/// and for `Subscribers.Demand` and `Subscribers.Completion`.
public enum Subscribers {}
