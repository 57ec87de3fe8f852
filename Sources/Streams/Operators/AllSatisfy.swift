extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given predicate: `false` (then the upstream is cancelled) at the first
    /// element that fails it, `true` when the upstream finishes (also when it is empty).
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every element satisfied the predicate.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that checks every element against `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a checking subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "AllSatisfy", initial: true, mapFailure: { $0 }) {
                (all, value) throws(Failure) in
                all = predicate(value)
                return all == false
            }
        }
    }

    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given error-throwing predicate. If the closure throws, the upstream is
    /// cancelled and the error is sent downstream.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether every element satisfied the predicate.
        public typealias Output = Bool
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that evaluates each received element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that checks every element against `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a checking subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "TryAllSatisfy", initial: true, mapFailure: { $0 }) {
                (all, value) throws(Error) in
                all = try predicate(value)
                return all == false
            }
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given predicate.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given error-throwing predicate.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
