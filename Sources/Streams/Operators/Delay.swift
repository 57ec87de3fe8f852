extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    ///
    /// Each value and the completion (a failure too) is scheduled on `scheduler` for `interval`
    /// after it arrived, so the spacing between events is kept. The subscription is handed over
    /// at once, and demand goes straight to the upstream: demand the downstream returns from a
    /// delayed `receive(_:)` is requested from the upstream then. After cancellation, actions
    /// already scheduled deliver nothing, and they hold no reference to the downstream.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler to deliver the delayed events.
        public let scheduler: Context
        /// Scheduler options used for every action.
        public let options: Context.SchedulerOptions?

        /// Creates a delaying publisher.
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes a delaying subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        /// Subscriber to the upstream, subscription for the downstream; both ends live in a
        /// ``Link`` that each scheduled action checks.
        ///
        /// Like Combine's, it has no description or custom mirror of its own.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            private let link: ScheduledLink<Downstream>
            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let interval: Context.SchedulerTimeType.Stride
            private let tolerance: Context.SchedulerTimeType.Stride
            private let scheduler: Context
            private let options: Context.SchedulerOptions?

            init(downstream: Downstream, publisher: Delay) {
                self.link = ScheduledLink(downstream: downstream)
                self.interval = publisher.interval
                self.tolerance = publisher.tolerance
                self.scheduler = publisher.scheduler
                self.options = publisher.options
            }

            private func schedule(_ action: @escaping () -> Void) {
                let scheduler = self.scheduler
                scheduler.schedule(
                    after: scheduler.now.advanced(by: self.interval),
                    tolerance: self.tolerance,
                    options: self.options,
                    action
                )
            }

            func receive(subscription: Subscription) {
                link.adopt(subscription)?.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                guard link.isAccepting else { return .none }
                schedule { [link] in
                    guard let downstream = link.ends?.downstream else { return }
                    let extra = downstream.receive(input)
                    // Not if the downstream cancelled while receiving the value.
                    if extra > 0, let upstream = link.ends?.upstream { upstream.request(extra) }
                }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                guard link.beginCompletion() else { return }
                schedule { [link] in
                    link.complete()?.receive(completion: completion)
                }
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
    /// Delays delivery of all output and the completion to the downstream receiver by
    /// `interval`, on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance (default: the scheduler's minimum tolerance).
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options for every scheduled action (default `nil`).
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self,
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler,
            options: options
        )
    }
}
