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
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }

        /// Subscriber to the upstream, subscription for the downstream. Both ends live in a
        /// ``Link``, checked by every scheduled action and dropped when the stream ends.
        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            @usableFromInline let link: ScheduledLink<Downstream>
            @usableFromInline let scheduler: Context
            @usableFromInline let options: Context.SchedulerOptions?

            @inlinable
            init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
                self.link = ScheduledLink(downstream: downstream)
                self.scheduler = scheduler
                self.options = options
            }

            @usableFromInline var description: String { "ReceiveOn" }

            @inlinable
            func receive(subscription: Subscription) {
                link.adopt(subscription)?.receive(subscription: self)
            }

            @inlinable
            func receive(_ input: Output) -> Subscribers.Demand {
                guard link.isAccepting else { return .none }
                scheduler.schedule(options: options) { [link] in
                    guard let downstream = link.ends?.downstream else { return }
                    let extra = downstream.receive(input)
                    // Not if the downstream cancelled while receiving the value.
                    if extra > 0, let upstream = link.ends?.upstream { upstream.request(extra) }
                }
                return .none
            }

            @inlinable
            func receive(completion: Subscribers.Completion<Failure>) {
                guard link.beginCompletion() else { return }
                scheduler.schedule(options: options) { [link] in
                    link.complete()?.receive(completion: completion)
                }
            }

            @inlinable
            func request(_ demand: Subscribers.Demand) {
                link.upstream?.request(demand)
            }

            @inlinable
            func cancel() {
                link.cancel()?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to receive elements (and completion) from the publisher.
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
