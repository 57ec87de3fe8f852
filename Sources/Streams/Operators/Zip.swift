extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers.
    ///
    /// Emits a tuple pairing the n-th value of `a` with the n-th value of `b`. Finishes as soon
    /// as one upstream has finished and has no unpaired value left; fails as soon as either fails.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// Pairs of values.
        public typealias Output = (A.Output, B.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A
        /// Another publisher to zip.
        public let b: B

        /// Creates a publisher that zips `a` and `b`.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to both publishers.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            PairInner<A, B, S>(downstream: subscriber, zip: true).start(subscriber, a, b)
        }
    }
}

extension Publisher {
    /// Combines elements from another publisher and delivers pairs of elements as tuples.
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Zips with another publisher and transforms each pair.
    public func zip<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        zip(other).map(transform)
    }
}
