extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into new publishers and
    /// merges their values.
    ///
    /// At most `maxPublishers` child publishers are subscribed at a time (the upstream is asked
    /// for that many values, and for one more whenever a child finishes). Each child is asked for
    /// one value at a time (more as its values are delivered), so the downstream's demand is
    /// honoured; values beyond it wait. Finishes when the upstream and all children have
    /// finished and nothing waits; the first failure cancels the rest and is forwarded.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The children's output type.
        public typealias Output = NewPublisher.Output
        /// The shared failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand
        /// A closure that takes an element as a parameter and returns a publisher.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a flat-mapping publisher.
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Subscribes to the upstream and merges the children it produces.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let engine = FlatMapEngine<Upstream.Output, NewPublisher, S>(
                downstream: subscriber,
                maxPublishers: maxPublishers,
                transform: transform
            )
            subscriber.receive(subscription: engine)
            upstream.subscribe(engine.upstreamSubscriber)
        }
    }
}

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum
    /// number of publishers you specify (default `.unlimited`).
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Flat-maps a publisher that cannot fail into children that can, by re-typing its failure.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }
}

extension Publisher {
    /// Flat-maps into children that cannot fail, by re-typing each child's failure to this
    /// publisher's.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            Publishers.SetFailureType<P, Failure>(upstream: transform($0))
        }
    }
}

extension Publisher where Failure == Never {
    /// Flat-maps a publisher that cannot fail into children that cannot fail either.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}
