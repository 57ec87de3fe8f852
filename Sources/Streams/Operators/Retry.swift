import Locking

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// On failure the upstream is subscribed again (up to `retries` times; `nil` retries
    /// without limit) and asked for the demand still outstanding; values already delivered stay
    /// delivered. When the retries are used up, the last failure goes downstream.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of retry attempts to perform; `nil` for no limit.
        public let retries: Int?

        /// Creates a retrying publisher.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Subscribes to the upstream, and again after each failure while retries remain.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = Relay(
                downstream: subscriber, name: "Retry",
                early: [
                    .trapValues, .trapExcessValues, .forwardCompletion, .forwardLaterUpstreamsValues,
                    .cancelLateSubscription,
                ], requestsReturnedDemand: true)
            let upstream = self.upstream
            // A failure that arrives while the upstream is being subscribed to (inside
            // `subscribe`) is retried once that call returned, as Combine does: the attempts
            // follow one another in a loop instead of nesting.
            let attempts = Locked(RetryAttempts())
            func attempt(remaining: Int?, generation: Int) {
                let loops = attempts.withLock { state -> Bool in
                    state.next = (remaining, generation)
                    guard !state.isSubscribing else { return false }
                    state.isSubscribing = true
                    return true
                }
                guard loops else { return }
                while let (remaining, generation) = attempts.withLock({ state -> (Int?, Int)? in
                    defer { state.next = nil }
                    if state.next == nil { state.isSubscribing = false }
                    return state.next
                }) {
                    upstream.subscribe(
                        RelaySide<Output, Failure, S>(relay: relay, generation: generation) { completion in
                            // As in Combine, a negative count never runs out.
                            guard case .failure = completion, remaining.map({ $0 != 0 }) ?? true else {
                                relay.complete(completion)
                                return
                            }
                            guard let generation = relay.detach() else { return }
                            attempt(remaining: remaining.map { $0 - 1 }, generation: generation)
                        }
                    )
                }
            }
            attempt(remaining: retries, generation: 0)
        }
    }
}

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number
    /// of times you specify.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

/// Where a ``Publishers/Retry`` stands between attempts: whether a subscribe call is under way,
/// and the attempt to make when it returns.
private struct RetryAttempts {
    var isSubscribing = false
    var next: (remaining: Int?, generation: Int)?
}
