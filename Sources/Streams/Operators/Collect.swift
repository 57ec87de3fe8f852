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
                Reducer<Upstream.Output, Failure, S>(
                    downstream: subscriber,
                    name: "Collect",
                    initial: [],
                    mapFailure: { $0 },
                    reflect: { result in [("count", result?.count ?? 0)] }
                ) { result, value in
                    result?.append(value)
                    return false
                }
            )
        }
    }

    /// A publisher that buffers a maximum number of items and emits them as an array when the
    /// buffer is full; when the upstream finishes, a partly filled buffer is emitted too.
    ///
    /// Each downstream demand of n is requested from the upstream as n × `count` values, so
    /// the downstream receives exactly the arrays it asked for. A failure is forwarded at once
    /// and the buffer discarded.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// An array of up to `count` upstream values.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher of arrays of `count` (≥ 1) elements.
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "collect(_:): count must be positive")
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes a buffering subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CountBuffer(downstream: subscriber, count: count))
        }
    }
}

/// The subscriber (and downstream subscription) of ``Publishers/CollectByCount``. Both ends live
/// in a ``Link``; the buffer is touched only from the upstream's serialised calls.
private final class CountBuffer<Element, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Element], Downstream.Failure == Failure {
    private let link: Link<Downstream>
    private let count: Int
    private var buffer: [Element] = []

    init(downstream: Downstream, count: Int) {
        // As Combine's, a completion before the subscription goes through.
        self.link = Link(downstream: downstream, early: [.forwardCompletion])
        self.count = count
    }

    var description: String { "CollectByCount" }

    var playgroundDescription: Any { description }

    /// Combine's children. The buffer is read without synchronisation: a mirror is a view for a
    /// debugger, taken while the stream is quiet.
    var customMirror: Mirror {
        Mirror(
            self,
            children: [
                downstreamChild(link.shownDownstream),
                ("upstreamSubscription", link.upstream.map { $0 as Any } ?? "nil"),
                ("buffer", buffer),
                ("count", count),
            ])
    }

    func receive(subscription: Subscription) {
        guard let downstream = link.adopt(subscription) else { return }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Element) -> Subscribers.Demand {
        guard let downstream = link.downstream else { return .none }
        buffer.append(input)
        guard buffer.count == count else { return .none }
        let full = buffer
        buffer = []
        return downstream.receive(full) * count
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let rest = buffer
        buffer = []
        guard let downstream = link.complete() else { return }
        if case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard demand > 0 else { return }
        link.upstream?.request(demand * count)
    }

    func cancel() {
        link.cancel()?.cancel()
    }
}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the
    /// upstream publisher finishes.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }

    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
