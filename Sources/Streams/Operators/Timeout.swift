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

        /// Whether the downstream has made its first request (which starts the wait again).
        private struct Requests: ScheduledPolicyState {
            var hasRequested = false
        }

        private final class Inner<Downstream: Subscriber>: ScheduledSubscription<Downstream, Requests>, Subscriber,
            Subscription, CombineReflectable, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is behind ScheduledSubscription's lock; its own fields are immutable.
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let interval: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?
            private let customError: (() -> Upstream.Failure)?

            init(downstream: Downstream, publisher: Timeout) {
                self.interval = publisher.interval
                self.scheduler = publisher.scheduler
                self.options = publisher.options
                self.customError = publisher.customError
                super.init(downstream: downstream)
            }

            var description: String { "Timeout" }

            func receive(subscription: Subscription) {
                guard let downstream = attach(subscription) else { return }
                restartTimer()
                downstream.receive(subscription: self)
            }

            private func restartTimer() {
                restartTimer(on: scheduler, every: interval, options: options) { [weak self] generation in
                    self?.timedOut(generation)
                }
            }

            private func timedOut(_ generation: UInt64) {
                let ended = state.withLock { state -> State? in
                    state.isCurrentTimer(generation) ? state.end() : nil
                }
                guard let ended, let downstream = ended.downstream else { return }
                ended.timer?.cancel()
                ended.upstream?.cancel()
                downstream.receive(completion: self.customError.map { .failure($0()) } ?? .finished)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                guard state.withLock({ $0.isAccepting }) else { return .none }
                restartTimer()
                self.scheduler.schedule(options: self.options) { [weak self] in
                    self?.deliver(input)
                }
                return .none
            }

            private func deliver(_ input: Output) {
                guard let (upstream, downstream) = ends else { return }
                let extra = downstream.receive(input)
                if extra > 0 { upstream?.request(extra) }
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let timer = beginCompletion { state -> Cancellable? in
                    defer { state.timer = nil }
                    return state.timer
                }
                guard let timer else { return }
                timer?.cancel()
                self.scheduler.schedule(options: self.options) { [weak self] in
                    self?.endForCompletion()?.receive(completion: completion)
                }
            }

            /// Passes any demand (`.none` too, as Combine does) to the upstream; the first
            /// request starts the wait again.
            func request(_ demand: Subscribers.Demand) {
                let taken = state.withLock { state -> (Subscription, Bool)? in
                    guard state.downstream != nil, let upstream = state.upstream else { return nil }
                    defer { state.policy.hasRequested = true }
                    return (upstream, !state.policy.hasRequested)
                }
                guard let (upstream, first) = taken else { return }
                if first { restartTimer() }
                upstream.request(demand)
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
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}
