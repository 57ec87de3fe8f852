import Locking

extension Publishers {
    /// A publisher that publishes either the most recent or the first element published by the
    /// upstream in each time interval.
    ///
    /// A value arriving when nothing is waiting is delivered on `scheduler` at once if `interval`
    /// has passed since the last delivery, or when it has; values arriving while one waits
    /// replace it (`latest: true`) or are dropped (`latest: false`). Values that arrive while the
    /// downstream has no demand are dropped, as in Combine; the upstream is asked for
    /// `.unlimited`. A completion is delivered after a waiting value, on `scheduler`.
    /// Thread-safety: the state lives in a lock that is never held while calling out; deliveries
    /// happen in scheduled actions.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The minimum time between two deliveries.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to publish elements.
        public let scheduler: Context
        /// Whether to publish the most recent element of an interval (`true`) or its first.
        public let latest: Bool

        /// Creates a throttling publisher.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Subscribes a throttling subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        /// The emission waiting for its time, and the time of the last one.
        private struct Emission: ScheduledPolicyState {
            var last: Context.SchedulerTimeType?
            var value: Output?
            var completion: Subscribers.Completion<Failure>?
            var isScheduled: Bool { value != nil || completion != nil }
        }

        private final class Inner<Downstream: Subscriber>: ScheduledSubscription<Downstream, Emission>, Subscriber,
            Subscription, CombineReflectable, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is behind ScheduledSubscription's lock; its own fields are immutable.
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let latest: Bool

            init(downstream: Downstream, publisher: Throttle) {
                self.interval = publisher.interval
                self.scheduler = publisher.scheduler
                self.latest = publisher.latest
                super.init(downstream: downstream, early: .cancelLateSubscription)
                // Combine reads the clock when its subscriber is made, and at every event.
                _ = publisher.scheduler.now
            }

            var description: String { "Throttle" }

            /// Asks the upstream for `.unlimited` before handing the subscription downstream,
            /// as Combine does.
            func receive(subscription: Subscription) {
                guard let downstream = attach(subscription) else { return }
                _ = self.scheduler.now
                subscription.request(.unlimited)
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                guard state.withLock({ $0.isAccepting }) else { return .none }
                let now = self.scheduler.now
                let emitAt = state.withLock { state -> Context.SchedulerTimeType?? in
                    guard state.downstream != nil, !state.isCompleting, state.demand > 0 else { return nil }
                    if state.policy.isScheduled {
                        if self.latest { state.policy.value = input }
                        return nil
                    }
                    state.demand -= 1
                    state.policy.value = input
                    guard let last = state.policy.last else { return .some(nil) }
                    let earliest = last.advanced(by: self.interval)
                    return .some(earliest > now ? earliest : nil)
                }
                guard let emitAt else { return .none }
                if let date = emitAt {
                    scheduler.schedule(after: date) { [weak self] in self?.emit() }
                } else {
                    scheduler.schedule { [weak self] in self?.emit() }
                }
                return .none
            }

            /// Delivers the completion with a waiting value, or on `scheduler` at once.
            func receive(completion: Subscribers.Completion<Failure>) {
                guard state.withLock({ $0.isAccepting }) else { return }
                _ = self.scheduler.now
                let scheduleNow = beginCompletion { state -> Bool in
                    let alreadyScheduled = state.policy.isScheduled
                    state.policy.completion = completion
                    return !alreadyScheduled
                }
                if scheduleNow == true {
                    self.scheduler.schedule { [weak self] in self?.emit() }
                }
            }

            private func emit() {
                let stampsEmission = state.withLock { $0.policy.value != nil && $0.policy.completion == nil }
                let now: Context.SchedulerTimeType? = stampsEmission ? self.scheduler.now : nil
                let taken = state.withLock {
                    state -> (Downstream, Output?, Subscribers.Completion<Failure>?, State?)? in
                    guard let downstream = state.downstream else { return nil }
                    let value = state.policy.value
                    let completion = state.policy.completion
                    state.policy.value = nil
                    state.policy.completion = nil
                    if let now, value != nil { state.policy.last = now }
                    return (downstream, value, completion, completion == nil ? nil : state.end())
                }
                guard let (downstream, value, completion, ended) = taken else { return }
                _ = ended  // released outside the lock
                if let value {
                    let extra = downstream.receive(value)
                    if extra > 0 {
                        state.withLock { state in
                            if state.downstream != nil { state.demand += extra }
                        }
                    }
                }
                if let completion {
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
    /// Publishes either the most recent (`latest: true`) or the first element published by the
    /// upstream in each `interval`, on `scheduler`.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
