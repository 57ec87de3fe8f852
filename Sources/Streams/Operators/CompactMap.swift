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
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a compact-mapping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "CompactMap",
                    value: { input, downstream in
                        guard let output = transform(input) else { return .max(1) }
                        return downstream.receive(output)
                    },
                    completion: { $0 }
                )
            )
        }
    }
}

extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that
    /// has a value.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}
