extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// Subscribing to the upstream, requesting from it and cancelling it are performed as
    /// actions on the scheduler; values and completion arrive on whatever thread the upstream
    /// uses.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler used to subscribe, request and cancel.
        public let scheduler: Context
        /// Scheduler options used for every action.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that subscribes on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) {
                upstream.subscribe(inner)
            }
        }

        /// Subscriber to the upstream, subscription for the downstream; the upstream subscription
        /// lives in a lock.
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

            var description: String { "SubscribeOn" }

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
                guard !state.withLock({ $0.terminated }) else { return .none }
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                let live = state.withLock { state -> Bool in
                    defer {
                        state.terminated = true
                        state.upstream = nil
                    }
                    return !state.terminated
                }
                if live { downstream.receive(completion: completion) }
            }

            func request(_ demand: Subscribers.Demand) {
                guard let upstream = state.withLock({ $0.terminated ? nil : $0.upstream }) else { return }
                scheduler.schedule(options: options) { upstream.request(demand) }
            }

            func cancel() {
                let upstream = state.withLock { state -> Subscription? in
                    state.terminated = true
                    defer { state.upstream = nil }
                    return state.upstream
                }
                guard let upstream else { return }
                scheduler.schedule(options: options) { upstream.cancel() }
            }
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
