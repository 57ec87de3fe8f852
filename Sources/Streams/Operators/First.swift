extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    ///
    /// The upstream is asked for unlimited values and cancelled after the first one; the value
    /// is delivered (then `.finished`) once the downstream demands it. An empty upstream just
    /// finishes.
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher of the upstream's first element.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes a reducing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Output, Failure, S>(downstream: subscriber, name: "First", initial: nil, mapFailure: { $0 }) {
                    result, value in
                    result = value
                    return true
                }
            )
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a predicate.
    ///
    /// Its subscription is named "TryFirst", the name Combine gives it.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher of the upstream's first element that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a reducing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Output, Failure, S>(downstream: subscriber, name: "TryFirst", initial: nil, mapFailure: { $0 })
                { result, value in
                    guard predicate(value) else { return false }
                    result = value
                    return true
                }
            )
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy an
    /// error-throwing predicate. If the closure throws, the upstream is cancelled and the error
    /// is sent downstream.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher of the upstream's first element that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a reducing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "TryFirstWhere", initial: nil, mapFailure: { $0 }) {
                (result, value) throws(Error) in
                guard try predicate(value) else { return false }
                result = value
                return true
            }
        }
    }
}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first element of a stream to satisfy an error-throwing predicate closure,
    /// then finishes.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}
