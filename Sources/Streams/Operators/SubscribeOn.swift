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

        /// Subscriber to the upstream, subscription for the downstream; both ends live in a
        /// ``Link`` and are dropped when the stream ends.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            private let link: Link<Downstream>
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
                self.link = Link(downstream: downstream)
                self.scheduler = scheduler
                self.options = options
            }

            var description: String { "SubscribeOn" }

            func receive(subscription: Subscription) {
                link.adopt(subscription)?.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                link.downstream?.receive(input) ?? .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                link.complete()?.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                guard let upstream = link.upstream else { return }
                scheduler.schedule(options: options) { upstream.request(demand) }
            }

            func cancel() {
                guard let upstream = link.cancel() else { return }
                scheduler.schedule(options: options) { upstream.cancel() }
            }
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
