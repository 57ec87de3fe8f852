extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream's
    /// completion.
    ///
    /// Like Combine, it asks the upstream for `.unlimited` as soon as it subscribes, whatever the
    /// downstream demands (the downstream never receives a value).
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No value is ever published.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores the upstream's elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes an ignoring subscriber to the upstream. As in Combine, it passes the
        /// upstream's subscription through (the downstream's requests and cancel go straight to
        /// it) and asks it for `.unlimited` at once.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }

        /// Stateless: everything it does is pass the subscription and the completion on.
        private struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
        where Downstream.Input == Never, Downstream.Failure == Failure {
            let downstream: Downstream
            let combineIdentifier = CombineIdentifier()

            var description: String { "IgnoreOutput" }

            func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
                subscription.request(.unlimited)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }

            func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
