extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing
    /// should continue; at the first element that fails it, the upstream is cancelled and the
    /// stream finishes (that element is not published).
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes elements while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a prefix subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // As Combine's, debug builds trap on events before the subscription.
            upstream.subscribeStepping(
                subscriber,
                name: "PrefixWhile",
                early: [.trap, .cancelLateSubscription],
                reflect: { [downstreamChild($0)] },
                mapFailure: { $0 }
            ) { input in
                predicate(input) ? .emit(input) : .finish
            }
        }
    }

    /// A publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue. If the closure throws, the upstream is cancelled and the
    /// error is sent downstream.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes elements while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a prefix subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // As Combine's, debug builds trap on events before the subscription.
            upstream.subscribeStepping(
                subscriber,
                name: "TryPrefixWhile",
                early: [.trap, .cancelLateSubscription],
                reflect: { [downstreamChild($0)] },
                mapFailure: { $0 }
            ) { input in
                tryStep { try predicate(input) ? .emit(input) : .finish }
            }
        }
    }
}

extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while an error-throwing predicate closure indicates publishing
    /// should continue.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
