extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers: it publishes
    /// a tuple of their values, paired by index, once each has produced its next value.
    ///
    /// Each downstream demand is requested from every upstream, so no more tuples are produced
    /// than demanded. Finishes as soon as one upstream has finished and has no value waiting;
    /// the first failure cancels the others and is forwarded.
    public struct Zip<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure {
        /// A tuple of one value from each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that zips the given publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to every upstream, in order, after handing the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ComboEngine.subscribe(subscriber, zip: true, a, b)
        }
    }

    /// A publisher created by applying the zip function to three upstream publishers: it publishes
    /// a tuple of their values, paired by index, once each has produced its next value.
    ///
    /// Each downstream demand is requested from every upstream, so no more tuples are produced
    /// than demanded. Finishes as soon as one upstream has finished and has no value waiting;
    /// the first failure cancels the others and is forwarded.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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

        /// Creates a publisher that zips the given publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Subscribes to every upstream, in order, after handing the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ComboEngine.subscribe(subscriber, zip: true, a, b, c)
        }
    }

    /// A publisher created by applying the zip function to four upstream publishers: it publishes
    /// a tuple of their values, paired by index, once each has produced its next value.
    ///
    /// Each downstream demand is requested from every upstream, so no more tuples are produced
    /// than demanded. Finishes as soon as one upstream has finished and has no value waiting;
    /// the first failure cancels the others and is forwarded.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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

        /// Creates a publisher that zips the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Subscribes to every upstream, in order, after handing the subscriber its subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ComboEngine.subscribe(subscriber, zip: true, a, b, c, d)
        }
    }

}

extension Publisher {
    /// Combines elements from this publisher and 1 other publisher, delivering tuples of
    /// elements paired by index.
    @inlinable
    public func zip<P: Publisher>(_ p: P) -> Publishers.Zip<Self, P>
    where P.Failure == Failure {
        Publishers.Zip(self, p)
    }

    /// Zips this publisher with others and transforms each tuple of elements.
    @inlinable
    public func zip<P: Publisher, T>(
        _ p: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        zip(p).map(transform)
    }

    /// Combines elements from this publisher and 2 other publishers, delivering tuples of
    /// elements paired by index.
    @inlinable
    public func zip<P: Publisher, Q: Publisher>(_ p: P, _ q: Q) -> Publishers.Zip3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, p, q)
    }

    /// Zips this publisher with others and transforms each tuple of elements.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, T>(
        _ p: P, _ q: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        zip(p, q).map(transform)
    }

    /// Combines elements from this publisher and 3 other publishers, delivering tuples of
    /// elements paired by index.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ p: P, _ q: Q, _ r: R) -> Publishers.Zip4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, p, q, r)
    }

    /// Zips this publisher with others and transforms each tuple of elements.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ p: P, _ q: Q, _ r: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        zip(p, q, r).map(transform)
    }
}
