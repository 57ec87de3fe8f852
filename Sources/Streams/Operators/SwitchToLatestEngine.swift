import Locking

/// `switchToLatest()`'s subscriber to the upstream of inner publishers, and the downstream's
/// subscription (see ``Publishers/SwitchToLatest``).
///
/// Inner publishers are numbered; events from any but the latest are ignored. Demand is kept
/// here: the downstream's requests add to it and go to the current inner subscription, each
/// value delivered takes one, and a new inner subscription is asked for what is outstanding.
/// Contract violations trap in debug builds as Combine's do (an inner value beyond the demand,
/// an inner completion before its subscription); release builds drop the value or go on.
/// Thread-safety: one lock, never held while calling out.
final class SwitchToLatestEngine<Inner: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CombineReflectable, @unchecked Sendable
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    typealias Input = Inner
    typealias Failure = Inner.Failure

    private struct State {
        var downstream: Downstream?
        var outer: Subscription?
        var inner: Subscription?
        var currentIndex: UInt64 = 0
        var nextIndex: UInt64 = 1
        var cancelled = false
        var outerFinished = false
        var sentCompletion = false
        var awaitingInnerSubscription = false
        var demand = Subscribers.Demand.none

        /// Marks the end and hands back the downstream to tell, once.
        mutating func end() -> Downstream? {
            sentCompletion = true
            defer { downstream = nil }
            return downstream
        }
    }

    private let state: Locked<State>

    init(downstream: Downstream) {
        self.state = Locked(State(downstream: downstream))
    }

    var description: String { "SwitchToLatest" }

    // MARK: The upstream of inner publishers

    func receive(subscription: Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard state.outer == nil, !state.cancelled, !state.sentCompletion else { return false }
            state.outer = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func receive(_ input: Inner) -> Subscribers.Demand {
        let started = state.withLock { state -> (UInt64, Subscription?)? in
            guard !state.cancelled, !state.outerFinished, !state.sentCompletion else { return nil }
            let previous = state.inner
            state.inner = nil
            let index = state.nextIndex
            state.currentIndex = index
            state.nextIndex += 1
            state.awaitingInnerSubscription = true
            return (index, previous)
        }
        guard let (index, previous) = started else { return .none }
        previous?.cancel()
        input.subscribe(SwitchToLatestSide(outer: self, index: index))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let ended = state.withLock { state -> (Downstream, Subscription?)? in
            state.outer = nil
            state.outerFinished = true
            guard !state.cancelled, !state.sentCompletion else { return nil }
            if case .finished = completion {
                guard !state.awaitingInnerSubscription, state.inner == nil else { return nil }
            }
            let inner = state.inner
            state.inner = nil
            return state.end().map { ($0, inner) }
        }
        guard let (downstream, inner) = ended else { return }
        inner?.cancel()
        downstream.receive(completion: completion)
    }

    // MARK: The downstream's subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let inner = state.withLock { state -> Subscription? in
            guard !state.cancelled, !state.sentCompletion else { return nil }
            state.demand += demand
            return state.inner
        }
        inner?.request(demand)
    }

    func cancel() {
        let ended = state.withLock { state -> (Subscription?, Subscription?, Downstream?) in
            state.cancelled = true
            defer { state.inner = nil; state.outer = nil; state.downstream = nil }
            return (state.inner, state.outer, state.downstream)
        }
        ended.0?.cancel()
        ended.1?.cancel()
    }

    // MARK: The current inner publisher

    fileprivate func receiveInner(subscription: Subscription, _ index: UInt64) {
        // The demand to ask the subscription for; `nil` when it is to be cancelled.
        let outstanding = state.withLock { state -> Subscribers.Demand? in
            guard state.currentIndex == index, !state.cancelled, state.inner == nil else { return nil }
            state.awaitingInnerSubscription = false
            // After the upstream failed, Combine still asks the late subscription for the
            // outstanding demand; nothing it sends reaches anyone, and it is not kept.
            if !state.sentCompletion { state.inner = subscription }
            return state.demand
        }
        guard let outstanding else {
            subscription.cancel()
            return
        }
        if outstanding > 0 { subscription.request(outstanding) }
    }

    fileprivate func receiveInner(_ input: Downstream.Input, _ index: UInt64) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard state.currentIndex == index, !state.cancelled, let downstream = state.downstream else { return nil }
            guard state.demand > 0 else {
                assertionFailure("An inner publisher of switchToLatest sent a value beyond the demand")
                return nil
            }
            state.demand -= 1
            return downstream
        }
        guard let downstream else { return .none }
        let extra = downstream.receive(input)
        if extra > 0 {
            state.withLock { state in
                if !state.sentCompletion, !state.cancelled { state.demand += extra }
            }
        }
        return extra
    }

    fileprivate func receiveInner(completion: Subscribers.Completion<Failure>, _ index: UInt64) {
        let ended = state.withLock { state -> (Downstream, Subscription?)? in
            guard state.currentIndex == index, !state.cancelled else { return nil }
            if state.awaitingInnerSubscription {
                assertionFailure("An inner publisher of switchToLatest completed before its subscription")
                state.awaitingInnerSubscription = false
            }
            state.inner = nil
            guard !state.sentCompletion else { return nil }
            switch completion {
            case .finished:
                guard state.outerFinished else { return nil }
                return state.end().map { ($0, nil) }
            case .failure:
                state.cancelled = true
                let outer = state.outer
                state.outer = nil
                return state.end().map { ($0, outer) }
            }
        }
        guard let (downstream, outer) = ended else { return }
        outer?.cancel()
        downstream.receive(completion: completion)
    }
}

/// The subscriber to one inner publisher of `switchToLatest()`: passes its events to the outer
/// subscriber with its number.
private struct SwitchToLatestSide<Inner: Publisher, Downstream: Subscriber>: Subscriber, CombineReflectable
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    typealias Input = Inner.Output
    typealias Failure = Inner.Failure

    let outer: SwitchToLatestEngine<Inner, Downstream>
    let index: UInt64
    let combineIdentifier = CombineIdentifier()

    init(outer: SwitchToLatestEngine<Inner, Downstream>, index: UInt64) {
        self.outer = outer
        self.index = index
    }

    var description: String { "SwitchToLatest" }

    /// Combine's child: the outer subscription's identifier.
    var customMirror: Mirror {
        Mirror(self, children: [("parentSubscription", outer.combineIdentifier)])
    }

    func receive(subscription: Subscription) {
        outer.receiveInner(subscription: subscription, index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        outer.receiveInner(input, index)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        outer.receiveInner(completion: completion, index)
    }
}
