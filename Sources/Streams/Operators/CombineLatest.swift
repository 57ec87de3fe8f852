extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// Emits a tuple whenever either upstream produces a value, once both have produced at least
    /// one. Finishes when both finish (or when one finishes without ever producing a value);
    /// fails as soon as either fails.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// Tuples of the latest values.
        public typealias Output = (A.Output, B.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A
        /// Another publisher to combine.
        public let b: B

        /// Creates a publisher that combines the latest elements of `a` and `b`.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to both publishers.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            PairInner<A, B, S>(downstream: subscriber, zip: false).start(subscriber, a, b)
        }
    }
}

extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from
    /// either publisher.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines the latest values of this and another publisher with a transform.
    public func combineLatest<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        combineLatest(other).map(transform)
    }
}
