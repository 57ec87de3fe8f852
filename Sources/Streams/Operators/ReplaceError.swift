extension Publishers {
    /// A publisher that replaces any error in the stream with a provided element.
    ///
    /// On failure, the element is sent as soon as the downstream has outstanding demand, then
    /// `.finished`. Values before the failure stay delivered.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Errors are replaced, so the result never fails.
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates an error-replacing publisher.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes to the upstream; on failure, sends ``output`` when demanded, then finishes.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = Relay(downstream: subscriber, name: "ReplaceError", early: [.trapExcessValues])
            let output = self.output
            upstream.subscribe(
                RelaySide<Output, Upstream.Failure, S>(relay: relay) { completion in
                    switch completion {
                    case .finished:
                        relay.complete(.finished)
                    case .failure:
                        guard let generation = relay.detach() else { return }
                        Just(output).subscribe(
                            RelaySide<Output, Never, S>(
                                relay: relay, generation: generation, onCompletion: relay.complete))
                    }
                }
            )
        }
    }
}

extension Publisher {
    /// Replaces any error in the stream with the provided element.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
