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
            upstream.subscribe(Inner(downstream: subscriber, handlers: self))
        }

        /// Both subscriber and (for the downstream) subscription. The upstream subscription lives
        /// in a lock so that request/cancel from any thread are safe.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State {
                var upstream: Subscription?
                var terminated = false
            }

            private let downstream: Downstream
            private let handlers: HandleEvents
            private let state = Locked(State())

            init(downstream: Downstream, handlers: HandleEvents) {
                self.downstream = downstream
                self.handlers = handlers
            }

            var description: String { "HandleEvents" }

            func receive(subscription: Subscription) {
                let accepted = state.withLock { state -> Bool in
                    guard !state.terminated, state.upstream == nil else { return false }
                    state.upstream = subscription
                    return true
                }
                guard accepted else {
                    subscription.cancel()
                    return
                }
                handlers.receiveSubscription?(subscription)
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                handlers.receiveOutput?(input)
                let extra = downstream.receive(input)
                if extra > 0 { handlers.receiveRequest?(extra) }
                return extra
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                state.withLock { $0.upstream = nil }
                handlers.receiveCompletion?(completion)
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                handlers.receiveRequest?(demand)
                state.withLock { $0.upstream }?.request(demand)
            }

            func cancel() {
                let upstream = state.withLock { state -> Subscription? in
                    guard !state.terminated else { return nil }
                    state.terminated = true
                    defer { state.upstream = nil }
                    return state.upstream
                }
                guard let upstream else { return }
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
