extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specific element from its
    /// upstream publisher: `true` (then the upstream is cancelled) at the first equal element,
    /// `false` if the upstream finishes without one.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// Whether the element was found.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that looks for `output`.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes a searching subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let wanted = output
            upstream.subscribeReducing(subscriber, name: "Contains", initial: false, mapFailure: { $0 }) {
                (found, value) throws(Failure) in
                found = value == wanted
                return value == wanted
            }
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// predicate closure (`true`, then the upstream is cancelled), or `false` if the upstream
    /// finishes without one.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a matching element was found.
        public typealias Output = Bool
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether the publisher should consider an element a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that looks for an element satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a searching subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "ContainsWhere", initial: false, mapFailure: { $0 }) {
                (found, value) throws(Failure) in
                found = predicate(value)
                return found == true
            }
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies an
    /// error-throwing predicate closure. If the closure throws, the upstream is cancelled and
    /// the error is sent downstream.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a matching element was found.
        public typealias Output = Bool
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether an element is a match.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that looks for an element satisfying `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a searching subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "TryContainsWhere", initial: false, mapFailure: { $0 }) {
                (found, value) throws(Error) in
                found = try predicate(value)
                return found == true
            }
        }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes a Boolean value upon receiving an element that satisfies an error-throwing
    /// predicate closure.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}
