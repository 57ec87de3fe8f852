import Locking

/// The two ends an operator's inner subscriber holds while its stream is live: the upstream
/// subscription and the downstream subscriber.
///
/// Combine's ownership rule is that a subscription keeps its subscriber only while the stream
/// is live. A subscriber keeps its subscription (to request and cancel), so an operator that
/// kept its downstream after the end would form a cycle that outlives the stream. A link drops
/// both ends the moment the stream ends, from either side: ``complete()`` when the upstream
/// finishes or fails, ``cancel()`` when the downstream cancels. Each hands back the end the
/// caller must still notify, once, to be called outside the lock.
///
/// `Downstream` is whatever the upstream's events are forwarded to: a subscriber, or the subject
/// that `subscribe(_:)` feeds.
///
/// Thread-safety: both ends live in one lock that is never held while calling out; the link is
/// live from creation until the first of ``complete()`` and ``cancel()``.
@usableFromInline
struct Link<Downstream>: @unchecked Sendable {
    @usableFromInline
    struct State {
        /// A slot rather than `Subscription?` (see ``SubscriptionSlot``).
        @usableFromInline var upstream: SubscriptionSlot
        @usableFromInline var downstream: Downstream?
        /// The link ended after an upstream had attached: a later subscription is cancelled.
        @usableFromInline var hasEndedAttached = false

        @inlinable init(downstream: Downstream? = nil) {
            self.upstream = SubscriptionSlot()
            self.downstream = downstream
        }

        /// The state once the link ended.
        @inlinable static func ended(from state: State) -> State {
            var ended = State()
            ended.hasEndedAttached = state.upstream.isSet || state.hasEndedAttached
            return ended
        }
    }

    @usableFromInline let state: Locked<State>
    @usableFromInline let early: ContractPolicy

    /// - Parameter early: what to do with events that break the contract (see
    ///   ``ContractPolicy``); by default they reach no one.
    @inlinable
    init(downstream: Downstream, early: ContractPolicy = []) {
        state = Locked(State(downstream: downstream))
        self.early = early
    }

    /// Stores the upstream subscription and returns the downstream to hand a subscription to;
    /// `nil` (and the caller must cancel `upstream`) when the link has ended or already has an
    /// upstream.
    @inlinable
    func attach(_ upstream: Subscription) -> Downstream? {
        state.withLock { state -> Downstream? in
            guard let downstream = state.downstream, !state.upstream.isSet else { return nil }
            state.upstream = SubscriptionSlot(upstream)
            return downstream
        }
    }

    /// Takes the upstream's subscription and returns the downstream to hand a subscription to.
    /// `nil` when there is nothing to start: a second subscription is cancelled, and so is one
    /// that arrives after an attached link ended; one that arrives after the downstream
    /// cancelled before any subscription (which only a caller breaking the contract can do) is
    /// left alone, neither asked for values nor cancelled, as Combine leaves it (unless the
    /// operator cancels it, ``ContractPolicy/cancelLateSubscription``).
    @inlinable
    func adopt(_ upstream: Subscription) -> Downstream? {
        let (downstream, duplicate) = state.withLock { state -> (Downstream?, Bool) in
            guard let downstream = state.downstream else {
                return (nil, state.hasEndedAttached || early.contains(.cancelLateSubscription))
            }
            guard !state.upstream.isSet else { return (nil, true) }
            state.upstream = SubscriptionSlot(upstream)
            return (downstream, false)
        }
        if duplicate { upstream.cancel() }
        return downstream
    }

    /// The downstream while the link is live and attached. Before the upstream's subscription
    /// a value breaks the contract and finds none, unless the operator forwards such values
    /// (``ContractPolicy/forwardValues``) or traps on them (``ContractPolicy/trap``).
    @inlinable
    var downstream: Downstream? {
        let (downstream, early) = state.withLock { state -> (Downstream?, Bool) in
            !state.upstream.isSet && state.downstream != nil
                ? (self.early.contains(.forwardValues) ? state.downstream : nil, true) : (state.downstream, false)
        }
        if early, self.early.contains(.trapValues) {
            assertionFailure("A value arrived before the subscription, which breaks the contract")
        }
        return downstream
    }

    /// Whether the upstream's subscription has arrived and the link has not ended.
    @inlinable
    var isAttached: Bool {
        state.withLock { $0.upstream.isSet && $0.downstream != nil }
    }

    /// The downstream while the link is live, attached or not; for views such as mirrors,
    /// never for delivery.
    @inlinable
    var shownDownstream: Downstream? {
        state.withLock { $0.downstream }
    }

    /// The upstream subscription while the link is live (and attached). Asking for it before
    /// the subscription arrived (to pass on a request) traps in debug builds where the operator
    /// traps on early events (``ContractPolicy/trapCompletion``), as Combine's do.
    @inlinable
    var upstream: Subscription? {
        upstreamSlot.subscription
    }

    /// ``upstream`` as a slot, without building an optional existential (for hot paths).
    @inlinable
    var upstreamSlot: SubscriptionSlot {
        let (upstream, early) = state.withLock { state -> (SubscriptionSlot, Bool) in
            state.downstream == nil ? (SubscriptionSlot(), false) : (state.upstream, !state.upstream.isSet)
        }
        if early, self.early.contains(.trapCompletion) {
            assertionFailure("A request arrived before the subscription, which breaks the contract")
        }
        return upstream
    }

    /// Both ends while the link is live and attached.
    @inlinable
    var ends: (upstream: Subscription, downstream: Downstream)? {
        state.withLock { state in
            guard state.upstream.isSet, let downstream = state.downstream else { return nil }
            return (state.upstream.value, downstream)
        }
    }

    /// The upstream ended: drops both ends and returns the downstream to deliver the
    /// completion to (`nil` if the link had already ended). A completion before the upstream's
    /// subscription breaks the contract: it is ignored and the link stays as it was, unless the
    /// operator forwards it (``ContractPolicy/forwardCompletion``) or traps on it
    /// (``ContractPolicy/trap``).
    @inlinable
    func complete() -> Downstream? {
        let (downstream, early) = state.withLock { state -> (Downstream?, Bool) in
            let early = !state.upstream.isSet && state.downstream != nil
            guard !early || self.early.contains(.forwardCompletion) else { return (nil, true) }
            defer { state = State.ended(from: state) }
            return (state.downstream, early)
        }
        if early, self.early.contains(.trapCompletion) {
            assertionFailure("A completion arrived before the subscription, which breaks the contract")
        }
        return downstream
    }

    /// The downstream cancelled: drops both ends and returns the upstream to cancel (`nil` if
    /// the link had already ended or was never attached).
    @inlinable
    func cancel() -> Subscription? {
        cancelSlot().subscription
    }

    /// ``cancelSlot()``, also telling whether the link was live (attached or not).
    @inlinable
    func cancelReportingLive() -> (live: Bool, upstream: SubscriptionSlot) {
        let ended = state.withLock { state -> (Bool, SubscriptionSlot, Downstream?) in
            defer { state = State.ended(from: state) }
            return state.downstream == nil ? (false, SubscriptionSlot(), nil) : (true, state.upstream, state.downstream)
        }
        // The downstream is released here, outside the lock.
        return (ended.0, ended.1)
    }

    /// ``cancel()`` returning a slot, without building an optional existential (for hot paths).
    @inlinable
    func cancelSlot() -> SubscriptionSlot {
        let ended = state.withLock { state -> (SubscriptionSlot, Downstream?) in
            defer { state = State.ended(from: state) }
            return state.downstream == nil ? (SubscriptionSlot(), nil) : (state.upstream, state.downstream)
        }
        // The downstream is released here, outside the lock.
        return ended.0
    }
}

/// How an operator treats an upstream or a downstream that breaks the contract: a value or a
/// completion before the subscription, a subscription that arrives after the downstream
/// cancelled, a value beyond the demand, a second completion. Combine's operators each treat
/// these in their own way; each of ours says which it follows. With none of the options, such
/// events reach no one and a late subscription is left alone (neither asked for values nor
/// cancelled).
@usableFromInline
struct ContractPolicy: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt16

    @inlinable init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Values before the subscription go downstream.
    @inlinable static var forwardValues: ContractPolicy { ContractPolicy(rawValue: 1 << 0) }
    /// A completion before the subscription goes downstream and ends the link.
    @inlinable static var forwardCompletion: ContractPolicy { ContractPolicy(rawValue: 1 << 1) }
    /// Debug builds trap on a value before the subscription, as Combine's do; release builds
    /// ignore it.
    @inlinable static var trapValues: ContractPolicy { ContractPolicy(rawValue: 1 << 2) }
    /// Debug builds trap on a completion, or a request from the downstream, before the
    /// subscription, as Combine's do; release builds ignore it.
    @inlinable static var trapCompletion: ContractPolicy { ContractPolicy(rawValue: 1 << 4) }
    /// Both traps.
    @inlinable static var trap: ContractPolicy { [.trapValues, .trapCompletion] }
    /// A subscription that arrives after the downstream cancelled is cancelled.
    @inlinable static var cancelLateSubscription: ContractPolicy { ContractPolicy(rawValue: 1 << 3) }
    /// For operators that move from one upstream to the next (``Relay``): values that a later
    /// upstream sends before its subscription go downstream (the stream has started).
    @inlinable static var forwardLaterUpstreamsValues: ContractPolicy { ContractPolicy(rawValue: 1 << 5) }
    /// Debug builds trap on a value the downstream has not demanded, as Combine's do; release
    /// builds deliver it (the operators that check it keep the count).
    @inlinable static var trapExcessValues: ContractPolicy { ContractPolicy(rawValue: 1 << 6) }
    /// Debug builds trap when an upstream that has completed completes again, as Combine's do;
    /// release builds ignore it.
    @inlinable static var trapRepeatedCompletion: ContractPolicy { ContractPolicy(rawValue: 1 << 7) }
    /// A value the downstream has not demanded is dropped, as Combine's concatenate does.
    @inlinable static var dropExcessValues: ContractPolicy { ContractPolicy(rawValue: 1 << 8) }
    /// A request of `.none` is passed on to the upstream, as Combine's concatenate does
    /// (elsewhere a zero request has no effect).
    @inlinable static var forwardZeroRequests: ContractPolicy { ContractPolicy(rawValue: 1 << 9) }
    /// With ``forwardValues``: a value before the subscription that would end the stream early
    /// (``Stepper``'s `.finish`, `.emitAndFinish`) does not end it: the value, if any, still
    /// goes downstream, and the end waits for a value after the subscription, as Combine's
    /// output(in:) does.
    @inlinable static var endOnlyAttached: ContractPolicy { ContractPolicy(rawValue: 1 << 10) }
}
