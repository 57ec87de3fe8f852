import Locking

extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Collects the elements received in each `Stride` of time on the scheduler.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Collects the elements received in each `Stride` of time, or `Int` of them, whichever
        /// comes first.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    ///
    /// A repeating action on the scheduler, every stride from the subscription on, emits the
    /// elements gathered since the last emission (nothing when there are none). With
    /// `.byTimeOrCount`, a group is also emitted as soon as it holds `count` elements (the clock
    /// is not reset). Demand is honoured exactly: a group the downstream has no demand for waits
    /// until it asks (groups are never dropped). `.byTime` asks the upstream for `.unlimited`;
    /// `.byTimeOrCount` asks for `count` elements per group demanded. When the upstream
    /// finishes, the partial group is emitted, then `.finished`; a failure is forwarded at once
    /// and waiting groups are discarded. Thread-safety: values arrive on the upstream's thread
    /// and ticks on the scheduler's; both go through an outbox that calls the downstream from one
    /// thread at a time, outside any lock.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// An array of the elements of one group.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// How elements are grouped.
        public let strategy: TimeGroupingStrategy<Context>
        /// Scheduler options used for the repeating action.
        public let options: Context.SchedulerOptions?

        /// Creates a time-grouping publisher. A count must be positive.
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            if case .byTimeOrCount(_, _, let count) = strategy {
                precondition(count > 0, "collect(.byTimeOrCount): count must be positive")
            }
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Subscribes a grouping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State {
                var upstream: Subscription?
                var timer: Cancellable?
                var buffer: [Upstream.Output] = []
                var ended = false
            }

            private let state = Locked(State())
            private let outbox: Outbox<Downstream>
            private let downstream: Locked<Downstream?>
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let strategy: TimeGroupingStrategy<Context>
            private let options: Context.SchedulerOptions?
            private let scheduler: Context
            private let stride: Context.SchedulerTimeType.Stride
            private let count: Int?

            init(downstream: Downstream, publisher: CollectByTime) {
                self.strategy = publisher.strategy
                self.options = publisher.options
                switch self.strategy {
                case .byTime(let scheduler, let stride):
                    (self.scheduler, self.stride, self.count) = (scheduler, stride, nil)
                case .byTimeOrCount(let scheduler, let stride, let count):
                    (self.scheduler, self.stride, self.count) = (scheduler, stride, count)
                }
                self.downstream = Locked(downstream)
                let upstreamPerGroup = count
                let state = self.state
                self.outbox = Outbox(downstream) { extra in
                    guard let upstreamPerGroup else { return }
                    state.withLock { $0.ended ? nil : $0.upstream }?.request(extra * upstreamPerGroup)
                }
            }

            var description: String { "CollectByTime" }

            func receive(subscription: Subscription) {
                let accepted = state.withLock { state -> Bool in
                    guard state.upstream == nil, !state.ended else { return false }
                    state.upstream = subscription
                    return true
                }
                guard accepted, let downstream = downstream.withLock({ d in defer { d = nil }; return d }) else {
                    subscription.cancel()
                    return
                }
                let timer = scheduler.schedule(
                    after: scheduler.now.advanced(by: stride),
                    interval: stride,
                    tolerance: scheduler.minimumTolerance,
                    options: self.options
                ) { [weak self] in
                    self?.tick()
                }
                let stale = state.withLock { state -> Cancellable? in
                    if state.ended { return timer }
                    state.timer = timer
                    return nil
                }
                stale?.cancel()
                downstream.receive(subscription: self)
                outbox.open()
                if count == nil { subscription.request(.unlimited) }
            }

            private func tick() {
                let group = state.withLock { state -> [Upstream.Output]? in
                    guard !state.ended, !state.buffer.isEmpty else { return nil }
                    defer { state.buffer = [] }
                    return state.buffer
                }
                if let group { outbox.enqueue(group) }
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                let group = state.withLock { state -> [Upstream.Output]? in
                    guard !state.ended else { return nil }
                    state.buffer.append(input)
                    guard let count, state.buffer.count >= count else { return nil }
                    defer { state.buffer = [] }
                    return state.buffer
                }
                if let group { outbox.enqueue(group) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let ended = state.withLock { state -> (Cancellable?, [Upstream.Output])? in
                    guard !state.ended else { return nil }
                    defer { state = State(ended: true) }
                    return (state.timer, state.buffer)
                }
                guard let (timer, rest) = ended else { return }
                timer?.cancel()
                switch completion {
                case .finished:
                    if !rest.isEmpty { outbox.enqueue(rest) }
                    outbox.complete(.finished)
                case .failure:
                    outbox.complete(completion, dropPending: true)
                }
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0 else { return }
                outbox.request(demand)
                if let count {
                    state.withLock { $0.ended ? nil : $0.upstream }?.request(demand * count)
                }
            }

            func cancel() {
                let ended = state.withLock { state -> (Subscription?, Cancellable?)? in
                    guard !state.ended else { return nil }
                    defer { state = State(ended: true) }
                    return (state.upstream, state.timer)
                }
                outbox.cancel()
                guard let (upstream, timer) = ended else { return }
                timer?.cancel()
                upstream?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection per group.
    ///
    /// - Parameters:
    ///   - strategy: `.byTime(scheduler, stride)` or `.byTimeOrCount(scheduler, stride, count)`.
    ///   - options: Options for the repeating scheduled action (default `nil`).
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}
