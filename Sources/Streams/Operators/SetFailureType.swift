extension Publishers {
    /// A publisher that appears to send a specified failure type; the upstream cannot fail.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that re-types the upstream's (impossible) failure.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes a pass-through subscriber to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "SetFailureType",
                    value: { input, downstream in downstream.receive(input) },
                    completion: { $0.promoted() }
                )
            )
        }

        /// Returns a publisher with a different failure type.
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
