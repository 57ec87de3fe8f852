import Locking

/// The engine behind ``Publishers/DropUntilOutput``: an upstream whose values are dropped until
/// a second publisher, the trigger, produces a value.
///
/// As in Combine: the downstream gets its subscription first, then the trigger is subscribed
/// (and asked for one value), then the upstream. Requests made before the upstream's
/// subscription are added up and requested when it arrives. A dropped value returns `.none`;
/// once the trigger fired, values pass with the demand the downstream returns. The trigger's
/// subscription is let go of (not cancelled) when it fires; its completion before it fired
/// ends the stream (cancelling the upstream), afterwards it is ignored. The upstream's
/// completion cancels the trigger, then goes downstream; a cancel cancels the upstream, then
/// the trigger.
///
/// The engine is the upstream's subscriber and the downstream's subscription; the trigger's
/// subscriber (``TriggerSide``) shows the same identifier, as Combine's do.
///
/// Thread-safety: every field lives in one lock that is never held while calling out; both
/// ends are dropped at the end of the stream.
final class DropUntilOutputEngine<Input, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    NamedTriggeredEngine, CombineReflectable, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
    typealias TriggerFailure = Failure

    private struct State: TriggerHolding {
        var downstream: Downstream?
        var upstream: Subscription?
        var trigger: Subscription?
        var pendingDemand = Subscribers.Demand.none
        var phase = DropUntilOutputPhase.dropping
        /// The upstream handed over a subscription (kept or not); kept after the end.
        var hasReceivedSubscription = false

        var isEnded: Bool { phase == .ended }

        /// The state after the end: both ends and the trigger dropped.
        func ended() -> State { State(phase: .ended, hasReceivedSubscription: hasReceivedSubscription) }
    }

    private let state: Locked<State>

    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    static var triggerName: String { "DropUntilOutput" }

    var description: String { Self.triggerName }

    /// Hands the downstream its subscription, then subscribes to the trigger and the upstream.
    func start<Upstream: Publisher, Other: Publisher>(upstream: Upstream, other: Other)
    where Upstream.Output == Input, Upstream.Failure == Failure, Other.Failure == Failure {
        guard let downstream = state.withLock({ $0.downstream }) else { return }
        downstream.receive(subscription: self)
        other.subscribe(TriggerSide<DropUntilOutputEngine, Other.Output>(engine: self))
        upstream.subscribe(self)
    }

    // MARK: Upstream

    func receive(subscription: Subscription) {
        let demand = state.withLock { state -> Subscribers.Demand? in
            state.hasReceivedSubscription = true
            guard !state.isEnded, state.upstream == nil else { return nil }
            state.upstream = subscription
            defer { state.pendingDemand = .none }
            return state.pendingDemand
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let (downstream, early) = state.withLock { state -> (Downstream?, Bool) in
            guard state.hasReceivedSubscription else { return (nil, true) }
            guard state.phase == .passing, state.upstream != nil else { return (nil, false) }
            return (state.downstream, false)
        }
        if early {
            assertionFailure("A value arrived before the subscription, which breaks the contract")
        }
        return downstream?.receive(input) ?? .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // Before the upstream's subscription too, as Combine passes it on.
        let ends = state.withLock { state -> (Downstream?, Subscription?) in
            guard !state.isEnded else { return (nil, nil) }
            defer { state = state.ended() }
            return (state.downstream, state.trigger)
        }
        ends.1?.cancel()
        ends.0?.receive(completion: completion)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        let upstream = state.withLock { state -> Subscription? in
            guard !state.isEnded else { return nil }
            if state.upstream == nil { state.pendingDemand += demand }
            return state.upstream
        }
        upstream?.request(demand)
    }

    func cancel() {
        let ends = state.withLock { state -> (Subscription?, Subscription?, Downstream?) in
            guard !state.isEnded else { return (nil, nil, nil) }
            defer { state = state.ended() }
            return (state.upstream, state.trigger, state.downstream)
        }
        ends.0?.cancel()
        ends.1?.cancel()
    }

    // MARK: Trigger

    func adoptTrigger(_ subscription: Subscription) -> Bool {
        state.withLock { $0.adoptTrigger(subscription) }
    }

    func triggerFired() {
        let released = state.withLock { state -> Subscription? in
            guard !state.isEnded, let trigger = state.trigger else { return nil }
            state.phase = .passing
            state.trigger = nil
            return trigger
        }
        _ = released  // let go of outside the lock, not cancelled
    }

    func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
        let ends = state.withLock { state -> (Downstream?, Subscription?, Subscription?) in
            guard state.phase == .dropping else { return (nil, nil, nil) }
            defer { state = state.ended() }
            return (state.downstream, state.upstream, state.trigger)
        }
        ends.1?.cancel()
        ends.0?.receive(completion: completion)
    }
}

/// The engine behind ``Publishers/PrefixUntilOutput``: an upstream whose values pass until a
/// second publisher, the trigger, produces a value; then the upstream is cancelled and the
/// stream finishes.
///
/// As in Combine: the downstream gets its subscription when the upstream's arrives, and
/// requests (`.none` too) go straight to the upstream; events before it are ignored (a
/// completion then cancels the trigger). The trigger is asked for one value; when it fires
/// its subscription is let go of (not cancelled), the upstream is cancelled and `.finished`
/// goes downstream, after the value being delivered if one is. The trigger's completion only
/// lets go of it. The upstream's completion cancels the trigger, then goes downstream; a
/// cancel cancels the upstream, then the trigger.
///
/// Like Combine's, neither the engine nor the trigger's subscriber has a description or a
/// mirror of its own; the trigger's subscriber shows the engine's identifier.
///
/// Thread-safety: every field lives in one lock that is never held while calling out; both
/// ends are dropped at the end of the stream.
final class PrefixUntilOutputEngine<Input, Failure: Error, TriggerFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, TriggeredEngine, @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
    private struct State: TriggerHolding {
        var downstream: Downstream?
        var upstream: Subscription?
        var trigger: Subscription?
        var phase = PrefixUntilOutputPhase.running

        var isEnded: Bool { phase == .ended }
    }

    private let state: Locked<State>

    init(downstream: Downstream) {
        state = Locked(State(downstream: downstream))
    }

    /// Subscribes to the upstream, then to the trigger.
    func start<Upstream: Publisher, Other: Publisher>(upstream: Upstream, other: Other)
    where Upstream.Output == Input, Upstream.Failure == Failure, Other.Failure == TriggerFailure {
        upstream.subscribe(self)
        other.subscribe(TriggerSide<PrefixUntilOutputEngine, Other.Output>(engine: self))
    }

    // MARK: Upstream

    func receive(subscription: Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.isEnded, state.upstream == nil else { return nil }
            state.upstream = subscription
            return state.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.isEnded, state.upstream != nil else { return nil }
            if state.phase == .running { state.phase = .delivering }
            return state.downstream
        }
        guard let downstream else { return .none }
        let demand = downstream.receive(input)
        let finish = state.withLock { state -> (Subscription?, Downstream?)? in
            switch state.phase {
            case .delivering:
                state.phase = .running
                return nil
            case .running, .ended:
                return nil
            case .finishingAfterDelivery:
                break
            }
            defer { state = State(phase: .ended) }
            return (state.upstream, state.downstream)
        }
        if let finish {
            finish.0?.cancel()
            finish.1?.receive(completion: .finished)
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let ends = state.withLock { state -> (Downstream?, Subscription?) in
            guard !state.isEnded else { return (nil, nil) }
            let attached = state.upstream != nil
            defer { state = State(phase: .ended) }
            // Before the upstream's subscription the completion reaches no one.
            return (attached ? state.downstream : nil, state.trigger)
        }
        ends.1?.cancel()
        ends.0?.receive(completion: completion)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.isEnded ? nil : $0.upstream }?.request(demand)
    }

    func cancel() {
        let ends = state.withLock { state -> (Subscription?, Subscription?, Downstream?) in
            guard !state.isEnded else { return (nil, nil, nil) }
            defer { state = State(phase: .ended) }
            return (state.upstream, state.trigger, state.downstream)
        }
        ends.0?.cancel()
        ends.1?.cancel()
    }

    // MARK: Trigger

    func adoptTrigger(_ subscription: Subscription) -> Bool {
        state.withLock { $0.adoptTrigger(subscription) }
    }

    func triggerFired() {
        let ends = state.withLock { state -> (Subscription?, Downstream?, Subscription?)? in
            guard !state.isEnded, let trigger = state.trigger else { return nil }
            state.trigger = nil
            if state.phase == .delivering {
                state.phase = .finishingAfterDelivery
                return (nil, nil, trigger)
            }
            defer { state = State(phase: .ended) }
            return (state.upstream, state.downstream, trigger)
        }
        guard let ends else { return }
        // The trigger is let go of, not cancelled; the downstream finishes even if the
        // upstream's subscription has not arrived yet, as in Combine.
        ends.0?.cancel()
        ends.1?.receive(completion: .finished)
    }

    /// The trigger's completion only lets go of it.
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>) {
        let released = state.withLock { state -> Subscription? in
            defer { state.trigger = nil }
            return state.trigger
        }
        _ = released
    }
}

/// Where a ``DropUntilOutputEngine`` stands.
private enum DropUntilOutputPhase: UInt8 {
    /// The trigger has not fired: values are dropped, and its completion ends the stream.
    case dropping
    /// The trigger fired: values pass, and its completion is ignored.
    case passing
    /// Completed or cancelled.
    case ended
}

/// Where a ``PrefixUntilOutputEngine`` stands.
private enum PrefixUntilOutputPhase: UInt8 {
    /// Values pass; the trigger firing now finishes the stream at once.
    case running
    /// A value is being delivered downstream.
    case delivering
    /// The trigger fired during a delivery: the stream finishes once the delivery returns.
    case finishingAfterDelivery
    /// Finished, completed or cancelled.
    case ended
}
