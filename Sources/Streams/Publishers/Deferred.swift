/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// The closure runs once per subscription, on the subscribing thread.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The output of the created publishers.
    public typealias Output = DeferredPublisher.Output
    /// The failure of the created publishers.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a fresh publisher and subscribes the subscriber to it.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
