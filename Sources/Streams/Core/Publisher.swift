/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's
/// `Input` and `Failure` must match the publisher's `Output` and `Failure`.
///
/// Every publisher honours the contract of Combine: a subscriber receives exactly one
/// subscription, then at most as many values as it has demanded, then at most one completion.
/// Calls into one subscriber never overlap, but they may arrive on any thread.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish. Use `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    ///
    /// Implementations must call `receive(subscription:)` on the subscriber exactly once.
    /// Clients should call `subscribe(_:)` (the one taking a subscriber) instead.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    ///
    /// Always call this method instead of ``receive(subscriber:)``; it is the public entry point.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// A namespace for types that serve as publishers (`Publishers.Map`, `Publishers.Sequence`, …).
public enum Publishers {}
