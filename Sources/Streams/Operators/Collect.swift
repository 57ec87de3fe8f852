extension Publishers {
    /// A publisher that buffers items until the upstream finishes, then emits them as an array.
    ///
    /// An empty upstream produces `[]`. A failure is forwarded and the buffer discarded.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// An array of all upstream values.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a collecting publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes a collecting subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Upstream.Output, Failure, S>(downstream: subscriber, name: "Collect", initial: [], mapFailure: { $0 }) {
                    result, value in
                    result?.append(value)
                    return false
                }
            )
        }
    }
}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the
    /// upstream publisher finishes.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
