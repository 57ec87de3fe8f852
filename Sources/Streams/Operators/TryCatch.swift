extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher, or by failing with the error the handler throws.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The shared output type.
        public typealias Output = Upstream.Output
        /// Any error: the replacement's failure or the handler's thrown error.
        public typealias Failure = Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A throwing closure that returns a replacement publisher for the upstream failure.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a try-catching publisher.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Subscribes to the upstream; on failure, subscribes to the handler's publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = Relay(
                downstream: subscriber, name: "TryCatch",
                early: [.trapValues, .trapExcessValues, .trapRepeatedCompletion, .cancelLateSubscription],
                reflectsDemand: true)
            let handler = self.handler
            upstream.subscribe(
                RelaySide<Output, Upstream.Failure, S>(relay: relay) { completion in
                    switch completion {
                    case .finished:
                        relay.complete(.finished)
                    case .failure(let error):
                        let replacement: NewPublisher
                        do {
                            replacement = try handler(error)
                        } catch {
                            relay.complete(.failure(error))
                            return
                        }
                        guard let generation = relay.detach() else { return }
                        replacement.subscribe(
                            RelaySide<Output, NewPublisher.Failure, S>(relay: relay, generation: generation) {
                                completion in
                                relay.complete(completion.mapFailure { $0 as Error })
                            }
                        )
                    }
                }
            )
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by either replacing it with another publisher
    /// or throwing a new error.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}
