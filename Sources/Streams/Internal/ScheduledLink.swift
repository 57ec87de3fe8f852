import Locking

/// The two ends held by an operator that delivers on a scheduler (`receive(on:)`, `delay`):
/// like ``Link``, with the state Combine's scheduled operators have between the upstream's
/// completion and its scheduled delivery.
///
/// Once the upstream completes, its completion is scheduled and the link is *completing*:
/// later values, completions and requests are not scheduled or passed on (Combine's
/// pending-terminal state), while values scheduled before it still reach the downstream. A
/// cancel ends the link at once: nothing scheduled is delivered after it.
///
/// Thread-safety: both ends live in one lock that is never held while calling out.
@usableFromInline
struct ScheduledLink<Downstream>: @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var upstream: SubscriptionSlot
        @usableFromInline var downstream: Downstream?
        @usableFromInline var isCompleting: Bool

        @inlinable init(downstream: Downstream? = nil) {
            self.upstream = SubscriptionSlot()
            self.downstream = downstream
            self.isCompleting = false
        }
    }

    @usableFromInline let state: Locked<State>

    @inlinable
    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    /// Takes the upstream's subscription and returns the downstream to hand a subscription to;
    /// a second subscription is cancelled, one after the end is left alone (as Combine does).
    @inlinable
    func adopt(_ upstream: Subscription) -> Downstream? {
        let (downstream, duplicate) = state.withLock { state -> (Downstream?, Bool) in
            guard let downstream = state.downstream else { return (nil, false) }
            guard !state.upstream.isSet else { return (nil, true) }
            state.upstream = SubscriptionSlot(upstream)
            return (downstream, false)
        }
        if duplicate { upstream.cancel() }
        return downstream
    }

    /// Whether an upstream event is to be scheduled: the link is live, attached, and its
    /// upstream has not completed.
    @inlinable
    var isAccepting: Bool {
        state.withLock { $0.upstream.isSet && $0.downstream != nil && !$0.isCompleting }
    }

    /// Marks the upstream's completion; `true` when it is the first, to be scheduled.
    @inlinable
    func beginCompletion() -> Bool {
        state.withLock { state -> Bool in
            guard state.upstream.isSet, state.downstream != nil, !state.isCompleting else { return false }
            state.isCompleting = true
            return true
        }
    }

    /// Both ends while the link is live and attached (for a scheduled value's delivery).
    @inlinable
    var ends: (upstream: Subscription, downstream: Downstream)? {
        state.withLock { state in
            guard state.upstream.isSet, let downstream = state.downstream else { return nil }
            return (state.upstream.value, downstream)
        }
    }

    /// The upstream to pass a request to, while the link accepts events.
    @inlinable
    var upstream: Subscription? {
        state.withLock { state in
            state.downstream == nil || state.isCompleting ? nil : state.upstream.subscription
        }
    }

    /// The scheduled completion runs: ends the link and returns the downstream to deliver it to
    /// (`nil` after a cancel).
    @inlinable
    func complete() -> Downstream? {
        state.withLock { state -> Downstream? in
            defer { state = State() }
            return state.downstream
        }
    }

    /// The downstream cancelled: ends the link and returns the upstream to cancel (`nil` if the
    /// link had ended or was never attached). A completion still scheduled is not delivered.
    @inlinable
    func cancel() -> Subscription? {
        let ended = state.withLock { state -> (Subscription?, Downstream?) in
            defer { state = State() }
            return (state.upstream.subscription, state.downstream)
        }
        // The downstream is released here, outside the lock.
        return ended.0
    }
}
