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

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State {
                var upstream: Subscription?
                var downstream: Downstream?
                var demand = Subscribers.Demand.none
                var lastEmission: Context.SchedulerTimeType?
                var pendingValue: Output?
                var pendingCompletion: Subscribers.Completion<Failure>?
                var upstreamDone = false
                var emissionScheduled: Bool { pendingValue != nil || pendingCompletion != nil }
            }

            private let state: Locked<State>
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let latest: Bool

            init(downstream: Downstream, publisher: Throttle) {
                self.state = Locked(State(downstream: downstream))
                self.interval = publisher.interval
                self.scheduler = publisher.scheduler
                self.latest = publisher.latest
                // Combine reads the clock when its subscriber is made, and at every event.
                _ = publisher.scheduler.now
            }

            var description: String { "Throttle" }

            /// Asks the upstream for `.unlimited` before handing the subscription downstream,
            /// as Combine does.
            func receive(subscription: Subscription) {
                let downstream = state.withLock { state -> Downstream? in
                    guard state.upstream == nil, let downstream = state.downstream else { return nil }
                    state.upstream = subscription
                    return downstream
                }
                guard let downstream else {
                    subscription.cancel()
                    return
                }
                _ = self.scheduler.now
                subscription.request(.unlimited)
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                let live = state.withLock { $0.upstream != nil && $0.downstream != nil && !$0.upstreamDone }
                guard live else { return .none }
                let now = self.scheduler.now
                let emitAt = state.withLock { state -> Context.SchedulerTimeType?? in
                    guard state.downstream != nil, !state.upstreamDone, state.demand > 0 else { return nil }
                    if state.emissionScheduled {
                        if self.latest { state.pendingValue = input }
                        return nil
                    }
                    state.demand -= 1
                    state.pendingValue = input
                    guard let last = state.lastEmission else { return .some(nil) }
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
                let live = state.withLock { $0.upstream != nil && $0.downstream != nil && !$0.upstreamDone }
                guard live else { return }
                _ = self.scheduler.now
                let scheduleNow = state.withLock { state -> Bool in
                    guard state.downstream != nil, !state.upstreamDone else { return false }
                    state.upstreamDone = true
                    let alreadyScheduled = state.emissionScheduled
                    state.pendingCompletion = completion
                    return !alreadyScheduled
                }
                if scheduleNow {
                    self.scheduler.schedule { [weak self] in self?.emit() }
                }
            }

            private func emit() {
                let stampsEmission = state.withLock { $0.pendingValue != nil && $0.pendingCompletion == nil }
                let now: Context.SchedulerTimeType? = stampsEmission ? self.scheduler.now : nil
                let taken = state.withLock { state -> (Downstream, Output?, Subscribers.Completion<Failure>?)? in
                    guard let downstream = state.downstream else { return nil }
                    let value = state.pendingValue
                    let completion = state.pendingCompletion
                    state.pendingValue = nil
                    state.pendingCompletion = nil
                    if let now, value != nil { state.lastEmission = now }
                    if completion != nil { state = State() }
                    return (downstream, value, completion)
                }
                guard let (downstream, value, completion) = taken else { return }
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
                guard demand > 0 else { return }
                state.withLock { state in
                    if state.downstream != nil, !state.upstreamDone { state.demand += demand }
                }
            }

            func cancel() {
                let ended = state.withLock { state -> (Subscription?, Downstream?) in
                    defer { state = State() }
                    return (state.upstream, state.downstream)
                }
                ended.0?.cancel()
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
