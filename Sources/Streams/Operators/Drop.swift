extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    ///
    /// Each omitted element is replaced by a demand of one from the upstream, so the downstream
    /// receives exactly what it demanded from the elements that follow.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that drops the first `count` elements. A negative `count` is
        /// accepted here, as in Combine, and traps when the publisher is subscribed to.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Hands the subscriber its subscription, then subscribes it to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            precondition(count >= 0, "dropFirst: count must not be negative")
            // As in Combine, the downstream gets its subscription before the upstream is
            // subscribed to (see DropFirstSubscription).
            let inner = DropFirstSubscription(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given closure returns
    /// `false`, then republishes everything that follows.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that drops elements while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a dropping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let dropping = StepState(true)
            upstream.subscribeStepping(subscriber, name: "DropWhile", mapFailure: { $0 }) { input in
                if dropping.value, predicate(input) { return .skip }
                dropping.value = false
                return .emit(input)
            }
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given error-throwing
    /// closure returns `false`. If the closure throws, the upstream is cancelled and the error
    /// is sent downstream.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that drops elements while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a dropping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let dropping = StepState(true)
            upstream.subscribeStepping(subscriber, name: "TryDropWhile", mapFailure: { $0 }) { input in
                tryStep {
                    if dropping.value, try predicate(input) { return .skip }
                    dropping.value = false
                    return .emit(input)
                }
            }
        }
    }
}

extension Publisher {
    /// Omits the specified number of elements (default 1) before republishing later elements.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }

    /// Omits elements from the upstream publisher until a given closure returns `false`, then
    /// republishes all remaining elements.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until an error-throwing closure returns
    /// `false`, then republishes all remaining elements.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
