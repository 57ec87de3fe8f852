extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item (``Publisher/max()``,
    /// ``Publisher/min()`` and their `by:` forms).
    ///
    /// The upstream is asked for `.unlimited`; when it finishes, the extreme element (if any) is
    /// delivered once the downstream demands it, then `.finished`.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that returns `true` when its second argument should replace the first as
        /// the result.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that keeps the element `areInIncreasingOrder` ranks last.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes a comparing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.subscribeReducing(subscriber, name: "Comparison", initial: nil, mapFailure: { $0 }) {
                (best, value) throws(Failure) in
                if let current = best, !ordered(current, value) { return false }
                best = value
                return false
            }
        }
    }

    /// A publisher that republishes the extreme element under an error-throwing ordering. If the
    /// closure throws, the upstream is cancelled and the error is sent downstream.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that returns `true` when its second argument should replace
        /// the first as the result.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that keeps the element `areInIncreasingOrder` ranks last.
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes a comparing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.subscribeReducing(subscriber, name: "TryComparison", initial: nil, mapFailure: { $0 }) {
                (best, value) throws(Error) in
                if let current = best, try !ordered(current, value) { return false }
                best = value
                return false
            }
        }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// ordering closure, after it finishes. Among equal minimums the first is kept.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { current, candidate in areInIncreasingOrder(candidate, current) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// ordering closure, after it finishes. Among equal maximums the first is kept.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the minimum value received from the upstream publisher, using an
    /// error-throwing ordering closure, after it finishes.
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self) { current, candidate in try areInIncreasingOrder(candidate, current) }
    }

    /// Publishes the maximum value received from the upstream publisher, using an
    /// error-throwing ordering closure, after it finishes.
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
