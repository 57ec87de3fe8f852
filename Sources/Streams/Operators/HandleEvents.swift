extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    ///
    /// Closures run on the thread where the event happens, before the event is forwarded
    /// (`receiveCancel` and `receiveRequest` before the upstream is told). Every closure is
    /// optional.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// Runs when the upstream hands over its subscription.
        public var receiveSubscription: ((Subscription) -> Void)?
        /// Runs for every value.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Runs on completion.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Runs when the downstream cancels (once).
        public var receiveCancel: (() -> Void)?
        /// Runs when the downstream requests values.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates an event-handling publisher.
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Subscribes an event-reporting subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            receive(subscriber: subscriber, name: "HandleEvents")
        }

        /// Subscribes an event-reporting subscriber named `name` (print and breakpoint are
        /// built on this one and carry their own names, as in Combine).
        /// - Parameter receiveReturnedDemand: what to call with the demand the downstream returns
        ///   from `receive(_:)` (by default `receiveRequest`); `print` tells it apart.
        func receive<S: Subscriber>(
            subscriber: S,
            name: String,
            receiveReturnedDemand: ((Subscribers.Demand) -> Void)? = nil
        ) where S.Input == Output, S.Failure == Failure {
            let handlers = Handlers(
                receiveSubscription: receiveSubscription,
                receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion,
                receiveCancel: receiveCancel,
                receiveRequest: receiveRequest,
                receiveReturnedDemand: receiveReturnedDemand ?? receiveRequest
            )
            upstream.subscribe(Inner(downstream: subscriber, handlers: handlers, name: name))
        }

        /// The closures alone: a subscription must not keep its upstream publisher alive.
        private struct Handlers {
            let receiveSubscription: ((Subscription) -> Void)?
            let receiveOutput: ((Output) -> Void)?
            let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
            let receiveCancel: (() -> Void)?
            let receiveRequest: ((Subscribers.Demand) -> Void)?
            let receiveReturnedDemand: ((Subscribers.Demand) -> Void)?
        }

        /// Both subscriber and (for the downstream) subscription. Both ends live in a ``Link``,
        /// so request/cancel from any thread are safe and neither is kept after the end.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            private let link: Link<Downstream>
            private let handlers: Handlers
            let description: String

            init(downstream: Downstream, handlers: Handlers, name: String) {
                // As Combine's, events before the subscription go through.
                self.link = Link(downstream: downstream, early: [.forwardValues, .forwardCompletion])
                self.handlers = handlers
                self.description = name
            }

            /// As Combine's, the handler sees every subscription that arrives, a second one or
            /// one after a cancel too (which are then cancelled or left alone).
            func receive(subscription: Subscription) {
                handlers.receiveSubscription?(subscription)
                guard let downstream = link.adopt(subscription) else { return }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                guard let downstream = link.downstream else { return .none }
                handlers.receiveOutput?(input)
                let extra = downstream.receive(input)
                if extra > 0 { handlers.receiveReturnedDemand?(extra) }
                return extra
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                guard let downstream = link.complete() else { return }
                handlers.receiveCompletion?(completion)
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                handlers.receiveRequest?(demand)
                link.upstream?.request(demand)
            }

            /// The handler runs for the cancel of a live stream, attached or not (as Combine's).
            func cancel() {
                let (live, upstream) = link.cancelReportingLive()
                guard live else { return }
                handlers.receiveCancel?()
                upstream.cancel()
            }
        }
    }
}

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    public func handleEvents(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest
        )
    }
}
