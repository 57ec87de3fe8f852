extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// Values pass through. If the upstream finishes without having published anything, the
    /// element is sent as soon as the downstream has demand for it, then `.finished`. Failures
    /// pass through.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any
        /// elements.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates an empty-replacing publisher.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes to the upstream; if it finishes empty, sends ``output`` when demanded.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = Relay(downstream: subscriber, name: "ReplaceEmpty")
            let output = self.output
            upstream.subscribe(
                RelaySide<Output, Failure, S>(relay: relay) { completion in
                    guard case .finished = completion, !relay.hasForwarded else {
                        relay.complete(completion)
                        return
                    }
                    guard let generation = relay.detach() else { return }
                    Just(output).subscribe(RelaySide<Output, Never, S>(relay: relay, generation: generation) { _ in relay.complete(.finished) })
                }
            )
        }
    }
}

extension Publisher {
    /// Replaces an empty stream with the provided element.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
