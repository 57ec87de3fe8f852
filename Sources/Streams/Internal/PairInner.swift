import Locking

/// The engine behind ``Publishers/CombineLatest`` and ``Publishers/Zip``: two upstreams whose
/// values are paired into one downstream.
///
/// Each upstream is asked for one value at a time (starting when the downstream first asks for
/// values); a pair goes through an ``Outbox`` and the upstreams that contributed to it are asked
/// for their next value only once it has been delivered. A value that does not (yet) complete a
/// pair is stored: in latest mode it replaces the previous one and the next is requested at once;
/// in zip mode it waits in a queue of at most one.
///
/// Once the downstream's demand is `.unlimited`, both upstreams are asked for `.unlimited`
/// (zip then buffers without bound, as Combine does).
///
/// Completion: zip finishes as soon as a finished upstream has nothing queued; combineLatest
/// finishes when both have finished, or when one finishes without ever having produced a value.
/// A failure cancels the other upstream and is forwarded ahead of queued pairs.
///
/// Thread-safety: bookkeeping lives in a lock never held while calling out.
final class PairInner<A: Publisher, B: Publisher, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where A.Failure == B.Failure, Downstream.Input == (A.Output, B.Output), Downstream.Failure == A.Failure {
    typealias Failure = A.Failure

    private struct State {
        var subscriptionA: Subscription?
        var subscriptionB: Subscription?
        var valuesA: [A.Output] = []
        var valuesB: [B.Output] = []
        var finishedA = false
        var finishedB = false
        var started = false
        var unlimited = false
        var terminated = false
    }

    private let state = Locked(State())
    private let outbox: Outbox<Downstream>
    private let zip: Bool
    let description: String

    init(downstream: Downstream, zip: Bool) {
        outbox = Outbox(downstream)
        self.zip = zip
        self.description = zip ? "Zip" : "CombineLatest"
    }

    /// Hands the downstream its subscription, opens delivery, subscribes to both upstreams.
    func start(_ downstream: Downstream, _ a: A, _ b: B) {
        downstream.receive(subscription: self)
        outbox.open()
        a.subscribe(SideA(inner: self))
        b.subscribe(SideB(inner: self))
    }

    func request(_ demand: Subscribers.Demand) {
        let (first, becameUnlimited, _) = outbox.request(demand)
        guard first || becameUnlimited else { return }
        let subscriptions = state.withLock { state -> [Subscription] in
            state.started = true
            if becameUnlimited { state.unlimited = true }
            return state.terminated ? [] : [state.subscriptionA, state.subscriptionB].compactMap { $0 }
        }
        for subscription in subscriptions {
            subscription.request(becameUnlimited ? .unlimited : .max(1))
        }
    }

    func cancel() {
        outbox.cancel()
        cancelUpstreams()
    }

    private func cancelUpstreams() {
        let subscriptions = state.withLock { state -> [Subscription] in
            state.terminated = true
            defer {
                state.subscriptionA = nil
                state.subscriptionB = nil
                state.valuesA = []
                state.valuesB = []
            }
            return [state.subscriptionA, state.subscriptionB].compactMap { $0 }
        }
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    private func subscribed(_ subscription: Subscription, isA: Bool) {
        let (accepted, started, unlimited) = state.withLock { state -> (Bool, Bool, Bool) in
            guard !state.terminated else { return (false, false, false) }
            if isA { state.subscriptionA = subscription } else { state.subscriptionB = subscription }
            return (true, state.started, state.unlimited)
        }
        if !accepted {
            subscription.cancel()
        } else if started {
            subscription.request(unlimited ? .unlimited : .max(1))
        }
    }

    private enum Outcome {
        case none
        case requestAgain(Subscription?)
        case pair((A.Output, B.Output), [Subscription], finish: Bool)
    }

    private func received(a: A.Output?, b: B.Output?, fromA: Bool) {
        let outcome = state.withLock { state -> Outcome in
            guard !state.terminated else { return .none }
            if let a {
                if zip { state.valuesA.append(a) } else { state.valuesA = [a] }
            }
            if let b {
                if zip { state.valuesB.append(b) } else { state.valuesB = [b] }
            }
            guard let firstA = state.valuesA.first, let firstB = state.valuesB.first else {
                // No pair yet: in latest mode keep pulling from the side that produced a value.
                if zip || state.unlimited { return .none }
                return .requestAgain(fromA ? state.subscriptionA : state.subscriptionB)
            }
            if zip {
                state.valuesA.removeFirst()
                state.valuesB.removeFirst()
                let finish = (state.finishedA && state.valuesA.isEmpty) || (state.finishedB && state.valuesB.isEmpty)
                let next = state.unlimited ? [] : [state.subscriptionA, state.subscriptionB].compactMap { $0 }
                return .pair((firstA, firstB), next, finish: finish)
            }
            let source = fromA ? state.subscriptionA : state.subscriptionB
            return .pair((firstA, firstB), state.unlimited ? [] : [source].compactMap { $0 }, finish: false)
        }
        switch outcome {
        case .none:
            break
        case .requestAgain(let subscription):
            subscription?.request(.max(1))
        case .pair(let pair, let next, let finish):
            if finish {
                outbox.enqueue(pair)
                finished()
            } else {
                outbox.enqueue(pair) {
                    for subscription in next { subscription.request(.max(1)) }
                }
            }
        }
    }

    private func finished() {
        cancelUpstreams()
        outbox.complete(.finished)
    }

    private func completed(_ completion: Subscribers.Completion<Failure>, isA: Bool) {
        switch completion {
        case .failure(let error):
            cancelUpstreams()
            outbox.complete(.failure(error), dropPending: true)
        case .finished:
            let done = state.withLock { state -> Bool in
                guard !state.terminated else { return false }
                if isA {
                    state.finishedA = true
                    state.subscriptionA = nil
                } else {
                    state.finishedB = true
                    state.subscriptionB = nil
                }
                let empty = isA ? state.valuesA.isEmpty : state.valuesB.isEmpty
                if zip { return empty }
                return empty || (state.finishedA && state.finishedB)
            }
            if done { finished() }
        }
    }

    struct SideA: Subscriber, CustomStringConvertible {
        typealias Failure = A.Failure
        let inner: PairInner
        let combineIdentifier = CombineIdentifier()
        var description: String { inner.description }

        func receive(subscription: Subscription) { inner.subscribed(subscription, isA: true) }
        func receive(_ input: A.Output) -> Subscribers.Demand {
            inner.received(a: input, b: nil, fromA: true)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) { inner.completed(completion, isA: true) }
    }

    struct SideB: Subscriber, CustomStringConvertible {
        typealias Failure = A.Failure
        let inner: PairInner
        let combineIdentifier = CombineIdentifier()
        var description: String { inner.description }

        func receive(subscription: Subscription) { inner.subscribed(subscription, isA: false) }
        func receive(_ input: B.Output) -> Subscribers.Demand {
            inner.received(a: nil, b: input, fromA: false)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) { inner.completed(completion, isA: false) }
    }
}
