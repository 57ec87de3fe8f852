import Locking

/// The engine behind ``Publishers/Zip`` and ``Publishers/CombineLatest`` (and their 3- and
/// 4-publisher forms): several upstreams whose values are combined into one downstream.
///
/// Demand follows Combine: every demand the downstream requests (or returns from `receive(_:)`)
/// is requested from every upstream, so zip never produces more tuples than were demanded. An
/// upstream that hands over its subscription late is asked for all the demand so far.
/// Combinations go through an ``Outbox``, which serialises delivery and never delivers beyond
/// demand: zip queues its tuples; combineLatest offers each combination and drops it when the
/// downstream has no demand left (the latest values are kept for the next combination).
///
/// Completion: zip finishes as soon as a finished upstream has no value waiting; combineLatest
/// finishes when every upstream has finished, or when one finishes without ever having produced
/// a value. A failure cancels the other upstreams and is delivered ahead of queued tuples.
///
/// Values are held type-erased; `combine` (built by the typed publisher) turns one value per
/// upstream into the downstream's tuple. Thread-safety: bookkeeping lives in a lock never held
/// while calling out.
final class ComboInner<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    typealias Failure = Downstream.Failure

    private struct State {
        var subscriptions: [Subscription?]
        var queues: [[Any]]
        var finished: [Bool]
        var everProduced: [Bool]
        var demandSoFar = Subscribers.Demand.none
        var terminated = false
        /// Dropped when the stream ends, with whatever the closure captured.
        var combine: (([Any]) -> Downstream.Input)?
    }

    private let state: Locked<State>
    private var outbox: Outbox<Downstream>!  // set once in init
    private let zip: Bool
    let description: String

    init(downstream: Downstream, arity: Int, zip: Bool, combine: @escaping ([Any]) -> Downstream.Input) {
        self.zip = zip
        self.description = zip ? "Zip" : "CombineLatest"
        self.state = Locked(
            State(
                subscriptions: Array(repeating: nil, count: arity),
                queues: Array(repeating: [], count: arity),
                finished: Array(repeating: false, count: arity),
                everProduced: Array(repeating: false, count: arity),
                combine: combine
            )
        )
        self.outbox = Outbox(downstream) { [unowned self] extra in self.forwardDemand(extra) }
    }

    /// Hands the downstream its subscription and opens delivery; then subscribe each upstream
    /// with ``side(_:)``.
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        outbox.open()
    }

    /// The subscriber for upstream number `index`.
    func side<Input>(_ index: Int, _ input: Input.Type) -> ComboSide<Input, Downstream> {
        ComboSide(inner: self, index: index)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        outbox.request(demand)
        forwardDemand(demand)
    }

    func cancel() {
        outbox.cancel()
        cancelUpstreams()
    }

    private func forwardDemand(_ demand: Subscribers.Demand) {
        let subscriptions = state.withLock { state -> [Subscription] in
            guard !state.terminated else { return [] }
            state.demandSoFar += demand
            return state.subscriptions.compactMap { $0 }
        }
        for subscription in subscriptions {
            subscription.request(demand)
        }
    }

    private func cancelUpstreams() {
        let subscriptions = state.withLock { state -> [Subscription] in
            state.terminated = true
            defer {
                state.subscriptions = state.subscriptions.map { _ in nil }
                state.queues = state.queues.map { _ in [] }
                state.combine = nil
            }
            return state.subscriptions.compactMap { $0 }
        }
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    // MARK: Upstream events

    fileprivate func subscribed(_ subscription: Subscription, at index: Int) {
        let (accepted, demand) = state.withLock { state -> (Bool, Subscribers.Demand) in
            guard !state.terminated, state.subscriptions[index] == nil, !state.finished[index] else {
                return (false, .none)
            }
            state.subscriptions[index] = subscription
            return (true, state.demandSoFar)
        }
        if !accepted {
            subscription.cancel()
        } else if demand > 0 {
            subscription.request(demand)
        }
    }

    private enum Outcome {
        case none
        case combination(Downstream.Input, finish: Bool)
    }

    fileprivate func received(_ value: Any, at index: Int) {
        let outcome = state.withLock { state -> Outcome in
            guard !state.terminated, let combine = state.combine else { return .none }
            state.everProduced[index] = true
            if zip {
                state.queues[index].append(value)
            } else {
                state.queues[index] = [value]
            }
            guard state.queues.allSatisfy({ !$0.isEmpty }) else { return .none }
            let values = state.queues.map { $0[0] }
            guard zip else { return .combination(combine(values), finish: false) }
            for side in state.queues.indices { state.queues[side].removeFirst() }
            let finish = state.queues.indices.contains { state.finished[$0] && state.queues[$0].isEmpty }
            return .combination(combine(values), finish: finish)
        }
        guard case .combination(let combination, let finish) = outcome else { return }
        if zip {
            outbox.enqueue(combination)
        } else {
            outbox.offer(combination)
        }
        if finish { finishAll() }
    }

    fileprivate func completed(_ completion: Subscribers.Completion<Failure>, at index: Int) {
        switch completion {
        case .failure(let error):
            let live = state.withLock { !$0.terminated }
            guard live else { return }
            cancelUpstreams()
            outbox.complete(.failure(error), dropPending: true)
        case .finished:
            let done = state.withLock { state -> Bool in
                guard !state.terminated, !state.finished[index] else { return false }
                state.finished[index] = true
                state.subscriptions[index] = nil
                if zip { return state.queues[index].isEmpty }
                return !state.everProduced[index] || !state.finished.contains(false)
            }
            if done { finishAll() }
        }
    }

    private func finishAll() {
        cancelUpstreams()
        outbox.complete(.finished)
    }
}

/// The subscriber ``ComboInner`` puts in front of one of its upstreams.
struct ComboSide<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    typealias Failure = Downstream.Failure
    let inner: ComboInner<Downstream>
    let index: Int
    let combineIdentifier = CombineIdentifier()
    var description: String { inner.description }

    func receive(subscription: Subscription) { inner.subscribed(subscription, at: index) }
    func receive(_ input: Input) -> Subscribers.Demand {
        inner.received(input, at: index)
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { inner.completed(completion, at: index) }
}
