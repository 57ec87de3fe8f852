import Locking

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    ///
    /// The first value is measured from the moment the subscription arrived. Values are emitted
    /// synchronously, demand and cancellation go straight to the upstream, and the completion
    /// passes through. Thread-safety: as thread-safe as the upstream's serialised calls; the
    /// last time lives in a lock.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The interval between the previous event and this value, in the scheduler's units.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler whose clock measures the intervals.
        public let scheduler: Context

        /// Creates a measuring publisher.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Subscribes a measuring subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            private let link: Link<Downstream>
            private let scheduler: Context
            /// The time of the previous event; read from the clock when the subscription arrives.
            private let last: Locked<Context.SchedulerTimeType?>

            init(downstream: Downstream, scheduler: Context) {
                self.link = Link(downstream: downstream)
                self.scheduler = scheduler
                self.last = Locked(nil)
            }

            var description: String { "MeasureInterval" }

            func receive(subscription: Subscription) {
                guard let downstream = link.adopt(subscription) else { return }
                let now = scheduler.now
                last.withLock { $0 = now }
                downstream.receive(subscription: self)
            }

            /// Delivers the time since the previous event; demand the downstream returns is
            /// requested from the upstream, as Combine does, rather than returned.
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard let (upstream, downstream) = link.ends else { return .none }
                let now = scheduler.now
                let interval = last.withLock { last -> Output? in
                    defer { last = now }
                    return last.map { $0.distance(to: now) }
                }
                guard let interval else { return .none }
                let extra = downstream.receive(interval)
                if extra > 0 { upstream.request(extra) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                link.complete()?.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                link.upstream?.request(demand)
            }

            func cancel() {
                link.cancel()?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream
    /// publisher, using `scheduler`'s clock.
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.MeasureInterval<Self, S>
    {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
