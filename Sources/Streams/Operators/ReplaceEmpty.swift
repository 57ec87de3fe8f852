extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// Values pass through, with the demand the downstream returns. The upstream is asked for
    /// `.unlimited` once the downstream has its subscription, and the downstream's requests are
    /// passed on too, as in Combine. If the upstream finishes without having published anything,
    /// the element is sent, then `.finished`: at once if the downstream has requested anything,
    /// else at its first request. Failures pass through. Thread-safety: the state lives in a lock
    /// that is never held while calling out.
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
            upstream.subscribe(ReplaceEmptyEngine(downstream: subscriber, output: output))
        }
    }
}

extension Publisher {
    /// Replaces an empty stream with the provided element.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
