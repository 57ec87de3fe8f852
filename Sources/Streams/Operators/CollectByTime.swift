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

        /// The elements gathered since the last group.
        private struct Gathering: ScheduledPolicyState {
            var group: [Upstream.Output] = []
        }

        private final class Inner<Downstream: Subscriber>: ScheduledSubscription<Downstream, Gathering>, Subscriber,
            Subscription, CustomStringConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is behind ScheduledSubscription's lock; its own fields are immutable.
            private let outbox: Outbox<Downstream>
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let options: Context.SchedulerOptions?
            private let scheduler: Context
            private let stride: Context.SchedulerTimeType.Stride
            private let count: Int?

            init(downstream: Downstream, publisher: CollectByTime) {
                self.options = publisher.options
                switch publisher.strategy {
                case .byTime(let scheduler, let stride):
                    (self.scheduler, self.stride, self.count) = (scheduler, stride, nil)
                case .byTimeOrCount(let scheduler, let stride, let count):
                    (self.scheduler, self.stride, self.count) = (scheduler, stride, count)
                }
                let upstreamPerGroup = count
                let state = Locked(ScheduledSubscription<Downstream, Gathering>.State(downstream: downstream))
                self.outbox = Outbox(downstream) { extra in
                    guard let upstreamPerGroup else { return }
                    state.withLock { $0.downstream == nil ? nil : $0.upstream }?.request(extra * upstreamPerGroup)
                }
                super.init(state: state, early: .cancelLateSubscription)
            }

            var description: String { "CollectByTime" }

            func receive(subscription: Subscription) {
                guard let downstream = attach(subscription) else { return }
                restartTimer(on: scheduler, every: stride, options: options) { [weak self] _ in
                    self?.tick()
                }
                downstream.receive(subscription: self)
                outbox.open()
                if count == nil { subscription.request(.unlimited) }
            }

            private func tick() {
                let group = state.withLock { state -> [Upstream.Output]? in
                    guard state.downstream != nil, !state.policy.group.isEmpty else { return nil }
                    defer { state.policy.group = [] }
                    return state.policy.group
                }
                if let group { outbox.enqueue(group) }
            }

            /// Values that arrive before the subscription are gathered too.
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                let group = state.withLock { state -> [Upstream.Output]? in
                    guard state.downstream != nil else { return nil }
                    state.policy.group.append(input)
                    guard let count, state.policy.group.count >= count else { return nil }
                    defer { state.policy.group = [] }
                    return state.policy.group
                }
                if let group { outbox.enqueue(group) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                guard let ended = state.withLock({ $0.downstream == nil ? nil : $0.end() }) else { return }
                ended.timer?.cancel()
                switch completion {
                case .finished:
                    if !ended.policy.group.isEmpty { outbox.enqueue(ended.policy.group) }
                    outbox.complete(.finished)
                case .failure:
                    outbox.complete(completion, dropPending: true)
                }
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0 else { return }
                outbox.request(demand)
                if let count {
                    state.withLock { $0.downstream == nil ? nil : $0.upstream }?.request(demand * count)
                }
            }

            override func cancel() {
                outbox.cancel()
                super.cancel()
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
