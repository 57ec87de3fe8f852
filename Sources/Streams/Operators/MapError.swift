extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    /// Values pass through unchanged.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that converts the upstream failure into a new error.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates an error-mapping publisher.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = map
        }

        /// Creates an error-mapping publisher.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes an error-mapping subscriber to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "MapError",
                    value: { input, downstream in downstream.receive(input) },
                    completion: { $0.mapFailure(transform) }
                )
            )
        }
    }
}

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}
