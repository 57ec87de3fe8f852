import Locking

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// The first subscriber triggers ``ConnectablePublisher/connect()``; when the number of
    /// live subscribers (not yet cancelled or completed) drops to zero, the connection is
    /// cancelled, and a later subscriber connects again. Thread-safety: the connection and the
    /// subscriber count live in a lock; connect and disconnect happen outside it.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        private struct State {
            var connection: Cancellable?
            var isConnecting = false
            var subscribers = 0
        }

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let state = Locked(State())

        /// Creates an auto-connecting publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber, connecting the upstream if it is the first.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let shouldConnect = state.withLock { state -> Bool in
                state.subscribers += 1
                guard state.connection == nil, !state.isConnecting else { return false }
                state.isConnecting = true
                return true
            }
            upstream.subscribe(Inner(downstream: subscriber, parent: self))
            guard shouldConnect else { return }
            let connection = upstream.connect()
            let stale = state.withLock { state -> Cancellable? in
                state.isConnecting = false
                if state.subscribers == 0 { return connection }
                state.connection = connection
                return nil
            }
            stale?.cancel()
        }

        fileprivate func release() {
            let connection = state.withLock { state -> Cancellable? in
                state.subscribers -= 1
                guard state.subscribers == 0 else { return nil }
                defer { state.connection = nil }
                return state.connection
            }
            connection?.cancel()
        }

        /// Tracks one subscriber so that its cancel or completion releases the connection once.
        /// Both ends live in a ``Link`` and are dropped when the stream ends. (The downstream
        /// only receives this subscription after it is attached, so the link cannot be
        /// cancelled before it has an upstream.)
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let link: Link<Downstream>
            private let parent: Autoconnect

            init(downstream: Downstream, parent: Autoconnect) {
                self.link = Link(downstream: downstream, early: [.forwardValues, .forwardCompletion])
                self.parent = parent
            }

            /// The upstream's subscription's name, taken when it arrives.
            private let upstreamName = Locked<String?>(nil)

            /// As Combine's, the downstream sees the upstream's subscription by its name.
            var description: String {
                upstreamName.withLock { $0 } ?? "Autoconnect"
            }

            func receive(subscription: Subscription) {
                guard let downstream = link.adopt(subscription) else { return }
                let name = String(describing: subscription)
                upstreamName.withLock { $0 = name }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                link.downstream?.receive(input) ?? .none
            }

            /// As in Combine, only a cancel counts down the subscribers that keep the
            /// connection: a completion leaves it (the upstream has ended), and a subscriber
            /// that comes afterwards does not connect again.
            func receive(completion: Subscribers.Completion<Failure>) {
                link.complete()?.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                link.upstream?.request(demand)
            }

            func cancel() {
                guard let upstream = link.cancel() else { return }
                upstream.cancel()
                parent.release()
            }
        }
    }
}
