extension Publishers {
    /// A connectable publisher around an upstream that cannot fail: subscribers attach without
    /// starting it, and ``connect()`` subscribes it once for all of them (through a
    /// `PassthroughSubject`, so a subscriber sees only values sent after it attached).
    ///
    /// Copies share one connection point. Thread-safety: as ``Multicast``.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher around `upstream`.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        /// Attaches the subscriber without connecting the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes the upstream; cancelling the result cancels that subscription.
        public func connect() -> Cancellable {
            inner.connect()
        }
    }
}

extension Publisher where Failure == Never {
    /// Creates a connectable wrapper around the publisher: nothing is published until
    /// `connect()` (or `autoconnect()`).
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
