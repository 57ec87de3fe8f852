extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from a second publisher, then republishes everything that follows.
    ///
    /// Dropped elements are replaced by a demand of one from the upstream. The second publisher
    /// is asked for one element and cancelled once it has produced it; its failure fails the
    /// stream.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The shared failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that drops the upstream's elements until `other` produces one.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes to the upstream, then to the other publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = TriggerInner<Output, Failure, S>(downstream: subscriber, prefixMode: false)
            upstream.subscribe(inner.upstreamSubscriber)
            other.subscribe(inner.triggerSubscriber(Other.Output.self))
        }
    }

    /// A publisher that republishes elements until another publisher emits an element, then
    /// cancels the upstream and finishes.
    ///
    /// The second publisher is asked for one element; its completion is ignored.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The publisher whose first element ends the stream.
        public let other: Other

        /// Creates a publisher that republishes the upstream's elements until `other` produces one.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes to the upstream, then to the other publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = TriggerInner<Output, Failure, S>(downstream: subscriber, prefixMode: true)
            upstream.subscribe(inner.upstreamSubscriber)
            other.subscribe(inner.triggerSubscriber(Other.Output.self, failing: Other.Failure.self))
        }
    }
}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    /// Republishes elements until another publisher emits an element.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
