import Locking

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Asks the upstream for enough values to fill the buffer at subscription, and for one
        /// more each time a value leaves it.
        case keepFull
        /// Asks the upstream for `.unlimited` at subscription and buffers what arrives.
        case byRequest
    }

    /// A strategy that handles a value arriving when the buffer is full.
    public enum BufferingStrategy<Failure: Error> {
        /// Drops the value that just arrived.
        case dropNewest
        /// Drops the oldest value in the buffer to make room.
        case dropOldest
        /// Cancels the upstream and fails with the error the closure makes (after the buffered
        /// values, if the downstream asks for them).
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher until the downstream asks
    /// for them.
    ///
    /// Demand is honoured exactly: values leave the buffer only as the downstream requests them.
    /// `.finished` is delivered once the buffer is empty; the upstream's failure after the
    /// buffered values while the downstream has demand, or at once (the buffer discarded) when it
    /// has none; a full buffer's `customError` failure at the next request, after the values it
    /// lets through. With `.keepFull`, a value delivered as it arrives gives the upstream one
    /// more through its return, and values taken on request are asked for again. Thread-safety: the buffer and demand live in a lock that is never held while
    /// calling out; one thread at a time delivers, so a downstream may request or cancel from
    /// inside `receive(_:)`.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of elements to store.
        public let size: Int
        /// The strategy for initially populating the buffer.
        public let prefetch: PrefetchStrategy
        /// The action to take when a value arrives while the buffer is full.
        public let whenFull: BufferingStrategy<Failure>

        /// Creates a buffering publisher. A `size` of zero or less (accepted, as in Combine) makes
        /// a buffer that is always full.
        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes a buffering subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }

        /// The buffered values and the completion that follows them.
        private struct Buffered: ScheduledPolicyState {
            var values = FIFO<Output>()
            var terminal: Subscribers.Completion<Failure>?
            /// The terminal failure is the `customError` one: it waits for the next request.
            var hasOverflowed = false
            var isDraining = false
        }

        private final class Inner<Downstream: Subscriber>: ScheduledSubscription<Downstream, Buffered>, Subscriber,
            Subscription, CombineReflectable, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is behind ScheduledSubscription's lock; its own fields are immutable.
            private enum Step {
                case deliver(Downstream, Output)
                /// With the ended state, released outside the lock.
                case complete(Downstream, Subscribers.Completion<Failure>, State)
                case stop
            }

            // The publisher's settings, not the publisher: it holds its upstream, which may hold
            // this subscription (a cycle that would outlive the stream).
            private let size: Int
            private let prefetch: PrefetchStrategy
            private let whenFull: BufferingStrategy<Failure>

            init(downstream: Downstream, publisher: Buffer) {
                self.size = publisher.size
                self.prefetch = publisher.prefetch
                self.whenFull = publisher.whenFull
                super.init(downstream: downstream, early: .cancelLateSubscription)
            }

            var description: String { "Buffer" }

            /// Combine's view: the buffered values, where the subscription stands, the
            /// downstream's outstanding demand and the pending completion.
            var customMirror: Mirror {
                let children: [Mirror.Child] = state.withLock { state in
                    let stage =
                        state.downstream == nil
                        ? "terminal" : state.upstream == nil ? "awaitingSubscription" : "subscribed"
                    return [
                        ("values", Array(state.policy.values.waiting)),
                        ("state", stage),
                        ("downstreamDemand", state.demand),
                        ("terminal", state.policy.terminal as Any),
                    ]
                }
                return Mirror(self, children: children)
            }

            func receive(subscription: Subscription) {
                guard let downstream = attach(subscription) else { return }
                // As Combine's: the upstream is asked first, then the downstream gets its
                // subscription. A buffer of no size asks for nothing ahead (`.max` of a negative
                // count traps).
                let ahead: Subscribers.Demand = self.prefetch == .keepFull ? .max(Swift.max(self.size, 0)) : .unlimited
                if ahead > 0 { subscription.request(ahead) }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                let overflow = state.withLock { state -> (() -> Failure)? in
                    guard state.downstream != nil, state.policy.terminal == nil else { return nil }
                    if state.policy.values.count >= self.size {
                        switch self.whenFull {
                        case .dropNewest:
                            return nil
                        case .dropOldest:
                            if state.policy.values.count > 0 { _ = state.policy.values.popFirst() } else { return nil }
                        case .customError(let makeError):
                            return makeError
                        }
                    }
                    state.policy.values.append(input)
                    return nil
                }
                if let overflow {
                    // The caller's closure runs outside the lock.
                    let failure = overflow()
                    let toCancel = state.withLock { state -> Subscription? in
                        guard state.downstream != nil, state.policy.terminal == nil else { return nil }
                        state.policy.terminal = .failure(failure)
                        state.policy.hasOverflowed = true
                        return state.upstream
                    }
                    toCancel?.cancel()
                }
                // With `.keepFull`, what was delivered here is asked for again through the
                // return, as Combine's buffer does.
                let delivered = drain(fromRequest: false)
                return self.prefetch == .keepFull && delivered > 0 ? .max(delivered) : .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                // A completion before the subscription breaks the contract: as Combine's buffer
                // does, it is ignored.
                state.withLock { state in
                    if state.isAccepting, state.policy.terminal == nil { state.policy.terminal = completion }
                }
                drain(fromRequest: false)
            }

            func request(_ demand: Subscribers.Demand) {
                addDemand(demand)
                guard demand > 0 else { return }
                let delivered = drain(fromRequest: true)
                guard self.prefetch == .keepFull, delivered > 0 else { return }
                state.withLock { state in
                    state.downstream == nil || state.policy.terminal != nil ? nil : state.upstream
                }?.request(.max(delivered))
            }

            /// Before the upstream's subscription there is nothing to cancel: as Combine's buffer
            /// does, the cancel is ignored (only a caller breaking the contract holds this
            /// subscription then).
            override func cancel() {
                let ended = state.withLock { state -> State? in
                    state.upstream == nil && state.downstream != nil ? nil : state.end()
                }
                ended?.upstream?.cancel()
            }

            /// Delivers while there is demand and something to deliver, from one thread at a
            /// time, and returns how many values it delivered (with `.keepFull` the caller asks
            /// the upstream for as many). The completion follows the values: `.finished` once the
            /// buffer is empty, the upstream's failure at once when there is no demand (the rest
            /// discarded), and the failure of a full buffer (`customError`) at the next request,
            /// after the values the request lets through.
            @discardableResult
            private func drain(fromRequest: Bool) -> Int {
                let claimed = state.withLock { state -> Bool in
                    guard !state.policy.isDraining, state.downstream != nil else { return false }
                    state.policy.isDraining = true
                    return true
                }
                guard claimed else { return 0 }
                var delivered = 0
                loop: while true {
                    let step = state.withLock { state -> Step in
                        guard let downstream = state.downstream else { return .stop }
                        if state.policy.values.count > 0, state.demand > 0 {
                            state.demand -= 1
                            return .deliver(downstream, state.policy.values.popFirst())
                        }
                        if let terminal = state.policy.terminal {
                            var failed = false
                            if case .failure = terminal { failed = true }
                            let due =
                                state.policy.hasOverflowed
                                ? fromRequest : state.policy.values.count == 0 || (failed && state.demand == 0)
                            if due { return .complete(downstream, terminal, state.end()) }
                        }
                        state.policy.isDraining = false
                        return .stop
                    }
                    switch step {
                    case .stop:
                        break loop
                    case .complete(let downstream, let completion, let ended):
                        // As Combine's, the values a request let through before a full
                        // buffer's failure are asked for again (from the cancelled upstream).
                        if self.prefetch == .keepFull, delivered > 0, case .failure = completion {
                            ended.upstream?.request(.max(delivered))
                        }
                        downstream.receive(completion: completion)
                        return 0
                    case .deliver(let downstream, let value):
                        delivered += 1
                        addDemand(downstream.receive(value))
                    }
                }
                return delivered
            }
        }
    }
}

extension Publisher {
    /// Buffers elements received from an upstream publisher until the downstream asks for them.
    ///
    /// - Parameters:
    ///   - size: The maximum number of elements to store (positive).
    ///   - prefetch: `.keepFull` (ask the upstream for `size` values, then one per value taken)
    ///     or `.byRequest` (ask the upstream for `.unlimited`).
    ///   - whenFull: What to do with a value arriving while the buffer is full.
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    )
        -> Publishers.Buffer<Self>
    {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
