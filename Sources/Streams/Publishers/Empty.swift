/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// With `completeImmediately` (the default) subscribers get ``Subscriptions/empty`` and then
/// `.finished`; otherwise they get a subscription and nothing else, ever.
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// Whether the publisher immediately sends a completion.
    public let completeImmediately: Bool

    /// Creates an empty publisher. `completeImmediately` defaults to `true`.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given output and failure types.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Sends an empty subscription and, if ``completeImmediately``, `.finished`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }
}
