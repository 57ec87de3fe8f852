extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from a second publisher, then republishes everything that follows.
    ///
    /// The second publisher is asked for one element and let go of once it has produced it;
    /// its completion before that ends the stream. Dropped elements return no demand.
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

        /// Hands the subscriber its subscription, then subscribes to the other publisher and to
        /// the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            DropUntilOutputEngine<Output, Failure, S>(downstream: subscriber).start(upstream: upstream, other: other)
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
            PrefixUntilOutputEngine<Output, Failure, Other.Failure, S>(downstream: subscriber).start(
                upstream: upstream, other: other)
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
