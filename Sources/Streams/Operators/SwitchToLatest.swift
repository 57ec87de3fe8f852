extension Publishers {
    /// A publisher that flattens nested publishers, forwarding values only from the most
    /// recently received one.
    ///
    /// As in Combine: the downstream gets its subscription first, then the upstream is asked
    /// for unlimited inner publishers. A new inner publisher cancels the previous one and is
    /// asked for the downstream's outstanding demand once it subscribes; later requests go to
    /// it. The stream finishes when the upstream and the current inner publisher have finished;
    /// a failure of either ends it at once and cancels the other.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        /// The inner publishers' output type.
        public typealias Output = P.Output
        /// The shared failure type.
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that switches to the latest inner publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes to the upstream and to each inner publisher in turn.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = SwitchToLatestEngine<P, S>(downstream: subscriber)
            subscriber.receive(subscription: outer)
            upstream.subscribe(outer)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements of the latest inner publisher, re-typing this publisher's failure
    /// (it cannot fail) to the inner publishers'.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements of the latest inner publisher, re-typing the inner publishers'
    /// failure (they cannot fail) to this publisher's.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: map { Publishers.SetFailureType<Output, Failure>(upstream: $0) })
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes elements of the latest inner publisher; neither level can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}
