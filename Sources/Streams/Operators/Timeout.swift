import Locking

extension Publishers {
    /// A publisher that terminates publishing if the upstream doesn't publish an element within
    /// a specified interval.
    ///
    /// The wait starts when the subscription arrives and restarts with every value. When it runs
    /// out, the upstream is cancelled and the downstream receives `.failure(customError())`, or
    /// `.finished` without a `customError`. As in Combine, values and the upstream's completion
    /// are delivered on `scheduler`; demand goes straight to the upstream (demand returned from a
    /// scheduled delivery is requested then). Thread-safety: the state lives in a lock that is
    /// never held while calling out; deliveries happen in scheduled actions.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The longest wait for a value.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to deliver events.
        public let scheduler: Context
        /// Scheduler options used for every action.
        public let options: Context.SchedulerOptions?
        /// Makes the failure sent when the time runs out; `nil` finishes instead.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a timing-out publisher.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Subscribes a timing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State: UpstreamHolding {
                var upstream: Subscription?
                var downstream: Downstream?
                /// The running timer and the number it was started under: a timer whose number
                /// is not the current one is stale and ends nothing.
                var timer: Cancellable?
                var timerGeneration: UInt64 = 0
                var requested = false
                var upstreamDone = false
            }

            private let state: Locked<State>
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?
            private let customError: (() -> Upstream.Failure)?

            init(downstream: Downstream, publisher: Timeout) {
                self.state = Locked(State(downstream: downstream))
                self.interval = publisher.interval
                self.scheduler = publisher.scheduler
                self.options = publisher.options
                self.customError = publisher.customError
            }

            var description: String { "Timeout" }

            func receive(subscription: Subscription) {
                let (downstream, duplicate) = state.withLock { $0.admit(subscription) }
                if duplicate { subscription.cancel() }
                guard let downstream else { return }
                restartTimer()
                downstream.receive(subscription: self)
            }

            /// Starts the wait again as Combine does: a repeating timer every `interval`, the
            /// first firing `interval` from now; the previous timer is cancelled.
            private func restartTimer() {
                let generation = state.withLock { state -> UInt64? in
                    guard state.downstream != nil, !state.upstreamDone else { return nil }
                    state.timerGeneration &+= 1
                    return state.timerGeneration
                }
                guard let generation else { return }
                let scheduler = self.scheduler
                let timer = scheduler.schedule(
                    after: scheduler.now.advanced(by: self.interval),
                    interval: self.interval,
                    tolerance: scheduler.minimumTolerance,
                    options: self.options
                ) { [weak self] in
                    self?.timedOut(generation)
                }
                let stale = state.withLock { state -> Cancellable? in
                    guard state.downstream != nil, !state.upstreamDone, state.timerGeneration == generation else {
                        return timer
                    }
                    defer { state.timer = timer }
                    return state.timer
                }
                stale?.cancel()
            }

            private func timedOut(_ generation: UInt64) {
                let ended = state.withLock { state -> (Subscription?, Downstream, Cancellable?)? in
                    guard let downstream = state.downstream, !state.upstreamDone,
                        state.timerGeneration == generation
                    else { return nil }
                    defer { state = State() }
                    return (state.upstream, downstream, state.timer)
                }
                guard let (upstream, downstream, timer) = ended else { return }
                timer?.cancel()
                upstream?.cancel()
                downstream.receive(completion: self.customError.map { .failure($0()) } ?? .finished)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                let live = state.withLock { $0.upstream != nil && $0.downstream != nil && !$0.upstreamDone }
                guard live else { return .none }
                restartTimer()
                self.scheduler.schedule(options: self.options) { [weak self] in
                    self?.deliver(input)
                }
                return .none
            }

            private func deliver(_ input: Output) {
                guard let (upstream, downstream) = state.withLock({ state -> (Subscription?, Downstream)? in
                    state.downstream.map { (state.upstream, $0) }
                }) else { return }
                let extra = downstream.receive(input)
                if extra > 0 { upstream?.request(extra) }
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let timer = state.withLock { state -> Cancellable?? in
                    guard state.upstream != nil, state.downstream != nil, !state.upstreamDone else { return nil }
                    state.upstreamDone = true
                    defer { state.timer = nil }
                    return .some(state.timer)
                }
                guard let timer else { return }
                timer?.cancel()
                self.scheduler.schedule(options: self.options) { [weak self] in
                    guard let self else { return }
                    let downstream = self.state.withLock { state -> Downstream? in
                        defer { state = State() }
                        return state.downstream
                    }
                    downstream?.receive(completion: completion)
                }
            }

            /// Passes any demand (`.none` too, as Combine does) to the upstream; the first
            /// request starts the wait again.
            func request(_ demand: Subscribers.Demand) {
                let taken = state.withLock { state -> (Subscription, Bool)? in
                    guard state.downstream != nil, let upstream = state.upstream else { return nil }
                    defer { state.requested = true }
                    return (upstream, !state.requested)
                }
                guard let (upstream, first) = taken else { return }
                if first { restartTimer() }
                upstream.request(demand)
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
    /// Terminates publishing if the upstream publisher exceeds `interval` without producing an
    /// element (measured on `scheduler`).
    ///
    /// - Parameters:
    ///   - interval: The maximum time to wait for the next value.
    ///   - scheduler: The scheduler to deliver events on.
    ///   - options: Options for every scheduled action (default `nil`).
    ///   - customError: Makes the failure to end with; `nil` (the default) finishes normally.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}
