extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated
    /// value when the upstream finishes.
    ///
    /// The upstream is asked for `.unlimited`; the result is delivered (then `.finished`) once
    /// the downstream demands it. A failure is forwarded and the partial result discarded.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value passed to the closure with the first element.
        public let initial: Output
        /// A closure that takes the accumulated value and the next element and returns the new
        /// accumulated value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a reducing publisher.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes a reducing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = self.nextPartialResult
            upstream.subscribe(
                Reducer<Upstream.Output, Failure, S>(
                    downstream: subscriber, name: "Reduce", initial: initial, mapFailure: { $0 }
                ) {
                    result, value in
                    result = result.map { next($0, value) }
                    return false
                }
            )
        }
    }

    /// A publisher that applies an error-throwing closure to all received elements and produces
    /// an accumulated value when the upstream finishes. If the closure throws, the upstream is
    /// cancelled and the error is sent downstream.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value passed to the closure with the first element.
        public let initial: Output
        /// An error-throwing closure that takes the accumulated value and the next element and
        /// returns the new accumulated value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a try-reducing publisher.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes a reducing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = self.nextPartialResult
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    downstream: subscriber, name: "TryReduce", initial: initial, mapFailure: { $0 }
                ) {
                    (result, value) throws(Error) in
                    result = try result.map { try next($0, value) }
                    return false
                }
            )
        }
    }

    /// A publisher that publishes the number of elements received from the upstream publisher
    /// when it finishes.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of elements.
        public typealias Output = Int
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a counting publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes a counting subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Upstream.Output, Failure, S>(
                    downstream: subscriber, name: "Count", initial: 0, mapFailure: { $0 }
                ) { count, _ in
                    count? += 1
                    return false
                }
            )
        }
    }
}

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result
    /// upon completion.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Applies an error-throwing closure that collects each element of a stream and publishes a
    /// final result upon completion.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Publishes the number of elements received from the upstream publisher when it finishes.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}
