extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher.
    ///
    /// Values received before the failure stay delivered. On failure the handler's publisher
    /// is subscribed and asked for the demand still outstanding; its values and completion are
    /// forwarded. With a handler returning `Just`, the resulting failure type is `Never`.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The shared output type.
        public typealias Output = Upstream.Output
        /// The replacement's failure type.
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and returns a publisher to
        /// replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a catching publisher.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes to the upstream; on failure, subscribes to the handler's publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = Relay(
                downstream: subscriber, name: "Catch",
                early: [.trapValues, .trapExcessValues, .trapRepeatedCompletion, .cancelLateSubscription],
                reflectsDemand: true)
            let handler = self.handler
            upstream.subscribe(
                RelaySide<Output, Upstream.Failure, S>(relay: relay) { completion in
                    switch completion {
                    case .finished:
                        relay.complete(.finished)
                    case .failure(let error):
                        guard let generation = relay.detach() else { return }
                        handler(error).subscribe(
                            RelaySide<Output, Failure, S>(
                                relay: relay, generation: generation, onCompletion: relay.complete))
                    }
                }
            )
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}
