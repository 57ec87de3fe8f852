import Locking

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between
    /// events.
    ///
    /// Every value restarts the wait; when `dueTime` passes with no newer value, the latest one
    /// is delivered on `scheduler` if the downstream has demand for it (otherwise it is dropped,
    /// as in Combine). The upstream is asked for `.unlimited` once the downstream has its
    /// subscription. A completion (finished or failure) drops a waiting value and is delivered
    /// on `scheduler`. Thread-safety: the state lives in a lock that is never held while calling
    /// the downstream or the upstream; deliveries happen in scheduled actions, which a serial
    /// scheduler runs one at a time.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time the publisher waits before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context
        /// Scheduler options used for every action.
        public let options: Context.SchedulerOptions?

        /// Creates a debouncing publisher.
        public init(upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes a debouncing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State: UpstreamHolding {
                var upstream: Subscription?
                var downstream: Downstream?
                var demand = Subscribers.Demand.none
                var generation: UInt64 = 0
                var pending: Output?
                /// The repeating timer of the latest value (Combine's debounce waits with one).
                var timer: Cancellable?
            }

            private let state: Locked<State>
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let dueTime: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: Debounce) {
                self.state = Locked(State(downstream: downstream))
                self.dueTime = publisher.dueTime
                self.scheduler = publisher.scheduler
                self.options = publisher.options
            }

            var description: String { "Debounce" }

            var playgroundDescription: Any { description }

            /// Combine's children: the downstream while live, its outstanding demand and the
            /// value waiting for the quiet period.
            var customMirror: Mirror {
                let (downstream, demand, pending) = state.withLock { ($0.downstream, $0.demand, $0.pending) }
                return Mirror(self, children: [
                    downstreamChild(downstream),
                    ("downstreamDemand", demand),
                    ("currentValue", pending.map { $0 as Any } ?? "nil"),
                ])
            }

            func receive(subscription: Subscription) {
                let (downstream, duplicate) = state.withLock { $0.admit(subscription) }
                if duplicate { subscription.cancel() }
                guard let downstream else { return }
                downstream.receive(subscription: self)
                subscription.request(.unlimited)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                let generation = state.withLock { state -> UInt64? in
                    guard state.upstream != nil, state.downstream != nil else { return nil }
                    state.generation += 1
                    state.pending = input
                    return state.generation
                }
                guard let generation else { return .none }
                // As Combine does: a repeating timer, cancelled when it fires or is replaced.
                let scheduler = self.scheduler
                let timer = scheduler.schedule(
                    after: scheduler.now.advanced(by: self.dueTime),
                    interval: self.dueTime,
                    tolerance: scheduler.minimumTolerance,
                    options: self.options
                ) { [weak self] in
                    self?.due(generation)
                }
                let stale = state.withLock { state -> Cancellable? in
                    guard state.downstream != nil, state.generation == generation else { return timer }
                    defer { state.timer = timer }
                    return state.timer
                }
                stale?.cancel()
                return .none
            }

            private func due(_ generation: UInt64) {
                let (timer, delivery) = state.withLock { state -> (Cancellable?, (Downstream, Output)?) in
                    guard let downstream = state.downstream, state.generation == generation,
                        let value = state.pending
                    else { return (nil, nil) }
                    let timer = state.timer
                    state.timer = nil
                    state.pending = nil
                    guard state.demand > 0 else { return (timer, nil) }
                    state.demand -= 1
                    return (timer, (downstream, value))
                }
                timer?.cancel()
                guard let (downstream, value) = delivery else { return }
                let extra = downstream.receive(value)
                if extra > 0 { state.withLock { $0.demand += extra } }
            }

            /// Drops a waiting value and delivers the completion on `scheduler`, with no
            /// options (as Combine does).
            func receive(completion: Subscribers.Completion<Failure>) {
                let ended = state.withLock { state -> (Downstream?, Cancellable?) in
                    guard state.upstream != nil else { return (nil, nil) }
                    defer { state = State() }
                    return (state.downstream, state.timer)
                }
                ended.1?.cancel()
                guard let downstream = ended.0 else { return }
                self.scheduler.schedule(options: nil) {
                    downstream.receive(completion: completion)
                }
            }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0 else { return }
                state.withLock { state in
                    if state.downstream != nil { state.demand += demand }
                }
            }

            func cancel() {
                let ended = state.withLock { state -> (Subscription?, Cancellable?) in
                    defer { state = State() }
                    return (state.upstream, state.timer)
                }
                ended.1?.cancel()
                ended.0?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Publishes elements only after `dueTime` elapses between events: a burst of values
    /// produces its last value, `dueTime` after the burst ended.
    ///
    /// - Parameters:
    ///   - dueTime: The time to wait after the latest value before publishing it.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Options for every scheduled action (default `nil`).
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
