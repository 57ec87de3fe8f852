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
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes a debouncing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        /// The value waiting for the quiet period.
        private struct Waiting: ScheduledPolicyState {
            var value: Output?
        }

        private final class Inner<Downstream: Subscriber>: ScheduledSubscription<Downstream, Waiting>, Subscriber,
            Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is behind ScheduledSubscription's lock; its own fields are immutable.
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let dueTime: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: Debounce) {
                self.dueTime = publisher.dueTime
                self.scheduler = publisher.scheduler
                self.options = publisher.options
                super.init(downstream: downstream)
            }

            var description: String { "Debounce" }

            var playgroundDescription: Any { description }

            /// Combine's children: the downstream while live, its outstanding demand and the
            /// value waiting for the quiet period.
            var customMirror: Mirror {
                let (downstream, demand, pending) = state.withLock { ($0.downstream, $0.demand, $0.policy.value) }
                return Mirror(
                    self,
                    children: [
                        downstreamChild(downstream),
                        ("downstreamDemand", demand),
                        ("currentValue", pending.map { $0 as Any } ?? "nil"),
                    ])
            }

            func receive(subscription: Subscription) {
                guard let downstream = attach(subscription) else { return }
                downstream.receive(subscription: self)
                subscription.request(.unlimited)
            }

            /// Each value restarts the wait, as Combine's debounce does: a repeating timer,
            /// cancelled when it fires or is replaced.
            func receive(_ input: Output) -> Subscribers.Demand {
                restartTimer(on: scheduler, every: dueTime, options: options) { state in
                    guard state.upstream != nil else { return false }
                    state.policy.value = input
                    return true
                } fire: { [weak self] generation in
                    self?.due(generation)
                }
                return .none
            }

            private func due(_ generation: UInt64) {
                let (timer, delivery) = state.withLock { state -> (Cancellable?, (Downstream, Output)?) in
                    guard state.isCurrentTimer(generation), let downstream = state.downstream,
                        let value = state.policy.value
                    else { return (nil, nil) }
                    let timer = state.timer
                    state.timer = nil
                    state.policy.value = nil
                    guard state.demand > 0 else { return (timer, nil) }
                    state.demand -= 1
                    return (timer, (downstream, value))
                }
                timer?.cancel()
                guard let (downstream, value) = delivery else { return }
                addDemand(downstream.receive(value))
            }

            /// Drops a waiting value, ends the stream and delivers the completion on
            /// `scheduler`, with no options (as Combine does).
            func receive(completion: Subscribers.Completion<Failure>) {
                guard let ended = state.withLock({ $0.upstream == nil ? nil : $0.end() }) else { return }
                ended.timer?.cancel()
                guard let downstream = ended.downstream else { return }
                self.scheduler.schedule(options: nil) {
                    downstream.receive(completion: completion)
                }
            }

            func request(_ demand: Subscribers.Demand) {
                addDemand(demand)
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
