extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// closure. Completion passes through unchanged.
    ///
    /// `Map` adds no subscription of its own: demand and cancellation go straight to the
    /// upstream, so it is as thread-safe as the upstream and costs one closure call per value.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms upstream values with `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a transforming subscriber to the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
        where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Output) -> Output
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @inlinable init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
                self.downstream = downstream
                self.transform = transform
            }

            @usableFromInline var description: String { "Map" }

            @inlinable func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
            }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                downstream.receive(transform(input))
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Replaces `nil` elements in the stream with the provided element.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
