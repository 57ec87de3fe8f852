extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    ///
    /// Each dropped element is replaced by a demand of one from the upstream, so the
    /// downstream's demand is honoured. Like ``Map``, it passes the upstream subscription
    /// through and keeps no state.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a filtering publisher.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes a filtering subscriber to the upstream.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let isIncluded: (Output) -> Bool
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @inlinable init(downstream: Downstream, isIncluded: @escaping (Output) -> Bool) {
                self.downstream = downstream
                self.isIncluded = isIncluded
            }

            @usableFromInline var description: String { "Filter" }

            @inlinable func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
            }

            @inlinable func receive(_ input: Output) -> Subscribers.Demand {
                isIncluded(input) ? downstream.receive(input) : .max(1)
            }

            @inlinable func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided closure.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}
