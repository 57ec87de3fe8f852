extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    ///
    /// Values from both are interleaved in arrival order; delivery is serialised and honours
    /// demand (each upstream is asked for one value at a time). Finishes when both finish; the
    /// first failure cancels the other and is forwarded.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        /// The shared output type.
        public typealias Output = A.Output
        /// The shared failure type.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A
        /// A second publisher to merge.
        public let b: B

        /// Creates a merging publisher.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Subscribes to both publishers and merges their values.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeMany([a.eraseToAnyPublisher(), b.eraseToAnyPublisher()]).receive(subscriber: subscriber)
        }
    }

    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers. Same behaviour as ``Merge``.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The shared output type.
        public typealias Output = Upstream.Output
        /// The shared failure type.
        public typealias Failure = Upstream.Failure

        /// The publishers to merge.
        public let publishers: [Upstream]

        /// Creates a merging publisher from a variadic list of publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a merging publisher from a sequence of publishers.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Subscribes to every publisher and merges their values.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = MergeEngine<Upstream, Upstream, S>(
                downstream: subscriber,
                name: "Merge",
                maxPublishers: .unlimited,
                transform: { $0 }
            )
            inner.start(subscriber)
            Publishers.Sequence<[Upstream], Failure>(sequence: publishers).subscribe(inner.upstreamSubscriber)
        }

        /// Returns a merge of these publishers and one more.
        public func merge(with other: Upstream) -> MergeMany<Upstream> {
            MergeMany(publishers + [other])
        }
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the same type,
    /// delivering an interleaved sequence of elements.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Combines elements from this publisher with those from other publishers of the same type.
    @inlinable
    public func merge(with other: Self...) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany([self] + other)
    }
}
