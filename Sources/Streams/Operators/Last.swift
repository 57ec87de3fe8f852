extension Publishers {
    /// A publisher that waits until the upstream publisher finishes, then publishes the last
    /// element it received (nothing if it was empty), then finishes.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher of the upstream's last element.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes a subscriber that keeps the latest element to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribeReducing(subscriber, name: "Last", initial: nil, mapFailure: { $0 }) {
                (last, value) throws(Failure) in
                last = value
                return false
            }
        }
    }

    /// A publisher that waits until the upstream publisher finishes, then publishes the last
    /// element that satisfied a predicate.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher of the upstream's last element satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a subscriber that keeps the latest matching element to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "LastWhere", initial: nil, mapFailure: { $0 }) {
                (last, value) throws(Failure) in
                if predicate(value) { last = value }
                return false
            }
        }
    }

    /// A publisher that waits until the upstream publisher finishes, then publishes the last
    /// element that satisfied an error-throwing predicate. If the closure throws, the upstream
    /// is cancelled and the error is sent downstream.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher of the upstream's last element satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a subscriber that keeps the latest matching element to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "TryLastWhere", initial: nil, mapFailure: { $0 }) {
                (last, value) throws(Error) in
                if try predicate(value) { last = value }
                return false
            }
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last element of a stream that satisfies a predicate closure, after the
    /// stream finishes.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the last element of a stream that satisfies an error-throwing predicate
    /// closure, after the stream finishes.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
