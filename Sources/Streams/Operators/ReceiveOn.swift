extension Publishers {
    /// A publisher that delivers elements and completion to its downstream on a specific
    /// scheduler.
    ///
    /// Each value and the completion is scheduled as a separate action; the subscription itself
    /// is handed over synchronously. Use a serial scheduler (a serial `DispatchQueue`) to keep
    /// deliveries ordered and non-overlapping. After cancellation, actions already scheduled
    /// deliver nothing.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher uses to deliver elements.
        public let scheduler: Context
        /// Scheduler options used for every action.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes a rescheduling subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }

        /// Subscriber to the upstream, subscription for the downstream. The upstream subscription
        /// and the terminal flag live in a lock, checked by every scheduled action.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State {
                var upstream: Subscription?
                var terminated = false
            }

            private let downstream: Downstream
            private let scheduler: Context
            private let options: Context.SchedulerOptions?
            private let state = Locked(State())

            init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
                self.downstream = downstream
                self.scheduler = scheduler
                self.options = options
            }

            var description: String { "ReceiveOn" }

            func receive(subscription: Subscription) {
                let accepted = state.withLock { state -> Bool in
                    guard !state.terminated, state.upstream == nil else { return false }
                    state.upstream = subscription
                    return true
                }
                if accepted {
                    downstream.receive(subscription: self)
                } else {
                    subscription.cancel()
                }
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                scheduler.schedule(options: options) { [self] in
                    guard let upstream = state.withLock({ $0.terminated ? nil : $0.upstream }) else { return }
                    let extra = downstream.receive(input)
                    if extra > 0 { upstream.request(extra) }
                }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                scheduler.schedule(options: options) { [self] in
                    let live = state.withLock { state -> Bool in
                        defer {
                            state.terminated = true
                            state.upstream = nil
                        }
                        return !state.terminated
                    }
                    if live { downstream.receive(completion: completion) }
                }
            }

            func request(_ demand: Subscribers.Demand) {
                state.withLock { $0.terminated ? nil : $0.upstream }?.request(demand)
            }

            func cancel() {
                let upstream = state.withLock { state -> Subscription? in
                    state.terminated = true
                    defer { state.upstream = nil }
                    return state.upstream
                }
                upstream?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to receive elements (and completion) from the publisher.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
