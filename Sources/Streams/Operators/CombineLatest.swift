extension Publishers {
    /// A publisher that receives and combines the latest values from two publishers, publishing
    /// a tuple of them whenever any of them produces a value (once each has produced one).
    ///
    /// Each downstream demand is requested from every upstream; a combination produced while
    /// the downstream has no demand is dropped (the latest values are kept). Finishes when all
    /// upstreams have finished, or when one finishes without ever producing a value; the first
    /// failure cancels the others and is forwarded.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that combines the latest values of the given publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to every upstream, in order, after handing the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ComboEngine.subscribe(subscriber, zip: false, a, b)
        }
    }

    /// A publisher that receives and combines the latest values from three publishers, publishing
    /// a tuple of them whenever any of them produces a value (once each has produced one).
    ///
    /// Each downstream demand is requested from every upstream; a combination produced while
    /// the downstream has no demand is dropped (the latest values are kept). Finishes when all
    /// upstreams have finished, or when one finishes without ever producing a value; the first
    /// failure cancels the others and is forwarded.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C

        /// Creates a publisher that combines the latest values of the given publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes to every upstream, in order, after handing the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ComboEngine.subscribe(subscriber, zip: false, a, b, c)
        }
    }

    /// A publisher that receives and combines the latest values from four publishers, publishing
    /// a tuple of them whenever any of them produces a value (once each has produced one).
    ///
    /// Each downstream demand is requested from every upstream; a combination produced while
    /// the downstream has no demand is dropped (the latest values are kept). Finishes when all
    /// upstreams have finished, or when one finishes without ever producing a value; the first
    /// failure cancels the others and is forwarded.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D

        /// Creates a publisher that combines the latest values of the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes to every upstream, in order, after handing the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ComboEngine.subscribe(subscriber, zip: false, a, b, c, d)
        }
    }

}

extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple of the latest
    /// values whenever any of them produces a value.
    @inlinable
    public func combineLatest<P: Publisher>(_ p: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, p)
    }

    /// Combines the latest values of this publisher and others with a transform.
    @inlinable
    public func combineLatest<P: Publisher, T>(
        _ p: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        combineLatest(p).map(transform)
    }

    /// Subscribes to 2 additional publishers and publishes a tuple of the latest
    /// values whenever any of them produces a value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher>(_ p: P, _ q: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, p, q)
    }

    /// Combines the latest values of this publisher and others with a transform.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ p: P, _ q: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        combineLatest(p, q).map(transform)
    }

    /// Subscribes to 3 additional publishers and publishes a tuple of the latest
    /// values whenever any of them produces a value.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(_ p: P, _ q: Q, _ r: R)
        -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, p, q, r)
    }

    /// Combines the latest values of this publisher and others with a transform.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ p: P, _ q: Q, _ r: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        combineLatest(p, q, r).map(transform)
    }
}
