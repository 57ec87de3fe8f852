extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each
    /// received element. A `nil` result is replaced by a demand of one from the upstream.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a compact-mapping publisher.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a compact-mapping subscriber to the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }

        /// Inlinable like ``Map``'s, so a chain through `compactMap` is specialised in the
        /// caller's module instead of running every later stage as unspecialised generic code.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
        where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Output) -> Output?
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @inlinable init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
                self.downstream = downstream
                self.transform = transform
            }

            @usableFromInline var description: String { "CompactMap" }

            @inlinable func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
            }

            @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard let output = transform(input) else { return .max(1) }
                return downstream.receive(output)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that
    /// has a value.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}
