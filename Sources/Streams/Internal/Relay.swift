import Locking

/// One downstream subscription fed by a succession of upstreams, one at a time.
///
/// Used by operators that switch to a new upstream when the current one completes or fails:
/// ``Publishers/Concatenate``, ``Publishers/Catch``, ``Publishers/TryCatch``,
/// ``Publishers/ReplaceError``, ``Publishers/ReplaceEmpty`` and ``Publishers/Retry``. The relay keeps the demand still outstanding: values delivered
/// from any upstream reduce it, demand returned by the downstream or requested through the
/// relay adds to it, and the next upstream is asked for exactly what remains when it attaches.
/// The downstream sees a single subscription (the relay) for its whole life.
///
/// Thread-safety: the demand, the current upstream subscription, the downstream and the
/// terminal flag live in a lock that is never held while calling the downstream or an upstream,
/// so the downstream may request or cancel from inside `receive`. After `cancel()` or a
/// completion nothing more is started towards the downstream (which the relay then lets go of),
/// and an upstream attaching after cancel is cancelled at once.
final class Relay<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    private struct State {
        var demand = Subscribers.Demand.none
        var current: Subscription?
        var sentSubscription = false
        var forwardedAny = false
        /// Dropped when the relay terminates (completion or cancel).
        var downstream: Downstream?
        var terminated: Bool { downstream == nil }
    }

    private enum AttachAction { case cancel, sendSubscription(Downstream), request(Subscribers.Demand) }

    private let state: Locked<State>
    let description: String

    init(downstream: Downstream, name: String) {
        self.state = Locked(State(downstream: downstream))
        self.description = name
    }

    /// An upstream delivered its subscription. The first one makes the relay send itself to the
    /// downstream; later ones are asked for the outstanding demand.
    func attach(_ subscription: Subscription) {
        let action = state.withLock { state -> AttachAction in
            if state.terminated || state.current != nil { return .cancel }
            state.current = subscription
            if !state.sentSubscription, let downstream = state.downstream {
                state.sentSubscription = true
                return .sendSubscription(downstream)
            }
            return .request(state.demand)
        }
        switch action {
        case .cancel:
            subscription.cancel()
        case .sendSubscription(let downstream):
            downstream.receive(subscription: self)
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    /// Delivers a value from the current upstream, keeping the demand count.
    func forward(_ value: Downstream.Input) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard let downstream = state.downstream else { return nil }
            if state.demand != .unlimited { state.demand -= 1 }
            state.forwardedAny = true
            return downstream
        }
        guard let downstream else { return .none }
        let extra = downstream.receive(value)
        if extra > 0 {
            state.withLock { $0.demand += extra }
        }
        return extra
    }

    /// Whether any value has been delivered downstream so far (from any upstream).
    var hasForwarded: Bool {
        state.withLock { $0.forwardedAny }
    }

    /// The current upstream completed; another one will attach. Returns `false` if the relay
    /// has been cancelled meanwhile (then no new upstream should be subscribed).
    func detach() -> Bool {
        state.withLock { state -> Bool in
            state.current = nil
            return !state.terminated
        }
    }

    /// Ends the stream with `completion` (once; ignored after cancel).
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            defer {
                state.downstream = nil
                state.current = nil
            }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let current = state.withLock { state -> Subscription? in
            guard !state.terminated else { return nil }
            state.demand += demand
            return state.current
        }
        current?.request(demand)
    }

    func cancel() {
        let ended = state.withLock { state -> (Subscription?, Downstream?) in
            defer {
                state.downstream = nil
                state.current = nil
            }
            return (state.current, state.downstream)
        }
        // The downstream is released when `ended` goes, outside the lock.
        ended.0?.cancel()
    }
}

/// The subscriber a ``Relay`` puts in front of each of its upstreams.
struct RelaySide<Input, Failure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible
where Downstream.Input == Input {
    let relay: Relay<Downstream>
    let onCompletion: (Subscribers.Completion<Failure>) -> Void
    let combineIdentifier = CombineIdentifier()

    var description: String { relay.description }

    func receive(subscription: Subscription) {
        relay.attach(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        relay.forward(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        onCompletion(completion)
    }
}
