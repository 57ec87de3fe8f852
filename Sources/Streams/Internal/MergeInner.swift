import Locking

/// The engine behind ``Publishers/FlatMap``, ``Publishers/SwitchToLatest``,
/// ``Publishers/Merge`` and ``Publishers/MergeMany``: an upstream of values that are turned into
/// child publishers, whose values are merged into one downstream.
///
/// Demand: as in Combine, the upstream is asked for `maxPublishers` children as soon as it hands
/// over its subscription (one more each time a child finishes, when bounded), and every child is
/// asked for one value at a time — the next one only after its previous value was
/// delivered — so at most one value per child waits in the ``Outbox``.
///
/// Once the downstream's demand is `.unlimited`, every child (current and future) is asked for
/// `.unlimited` instead, so fast or concurrent sources (subjects) are not throttled.
///
/// In `switchToLatest` mode a new child cancels the previous one and values from superseded
/// children are dropped.
///
/// Completion: `.finished` once the upstream has finished and every child has finished; the first
/// failure (upstream or child) cancels everything else and is delivered ahead of queued values.
///
/// Thread-safety: subscriptions and bookkeeping live in a lock that is never held while calling
/// out; delivery goes through the outbox, which serialises it.
final class MergeInner<UpstreamOutput, Child: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Child.Output == Downstream.Input, Child.Failure == Downstream.Failure {
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream: Subscription?
        var upstreamFinished = false
        var unlimited = false
        var terminated = false
        var nextChildID = 0
        var latestChildID = -1
        var activeChildren: Set<Int> = []
        var childSubscriptions: [Int: Subscription] = [:]
        /// Dropped when the stream ends, with whatever the closure captured.
        var transform: ((UpstreamOutput) -> Child)?
    }

    private let state: Locked<State>
    private let outbox: Outbox<Downstream>
    private let maxPublishers: Subscribers.Demand
    private let switchToLatest: Bool
    let description: String

    init(
        downstream: Downstream,
        name: String,
        maxPublishers: Subscribers.Demand,
        switchToLatest: Bool = false,
        transform: @escaping (UpstreamOutput) -> Child
    ) {
        outbox = Outbox(downstream)
        self.description = name
        self.maxPublishers = switchToLatest ? .unlimited : maxPublishers
        self.switchToLatest = switchToLatest
        self.state = Locked(State(transform: transform))
    }

    /// Hands the downstream its subscription, then opens delivery. Call before subscribing
    /// upstream.
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        outbox.open()
    }

    var upstreamSubscriber: UpstreamSide { UpstreamSide(inner: self) }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        let (_, becameUnlimited, _) = outbox.request(demand)
        guard becameUnlimited else { return }
        let children = state.withLock { state -> [Subscription] in
            guard !state.terminated else { return [] }
            state.unlimited = true
            return Array(state.childSubscriptions.values)
        }
        for child in children {
            child.request(.unlimited)
        }
    }

    func cancel() {
        outbox.cancel()
        cancelAll()
    }

    private func cancelAll() {
        let subscriptions = state.withLock { state -> [Subscription] in
            state.terminated = true
            var all = Array(state.childSubscriptions.values)
            if let upstream = state.upstream { all.append(upstream) }
            state.upstream = nil
            state.childSubscriptions = [:]
            state.activeChildren = []
            state.transform = nil
            return all
        }
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    private func fail(_ error: Failure) {
        cancelAll()
        outbox.complete(.failure(error), dropPending: true)
    }

    // MARK: Upstream events

    private func upstreamSubscribed(_ subscription: Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard !state.terminated, state.upstream == nil else { return false }
            state.upstream = subscription
            return true
        }
        if !accepted {
            subscription.cancel()
        } else if maxPublishers > 0 {
            subscription.request(maxPublishers)
        }
    }

    private func upstreamReceived(_ value: UpstreamOutput) {
        let (next, superseded) = state.withLock { state -> ((id: Int, transform: (UpstreamOutput) -> Child)?, Subscription?) in
            guard !state.terminated, let transform = state.transform else { return (nil, nil) }
            let id = state.nextChildID
            state.nextChildID += 1
            var superseded: Subscription?
            if switchToLatest, state.latestChildID >= 0 {
                state.activeChildren.remove(state.latestChildID)
                superseded = state.childSubscriptions.removeValue(forKey: state.latestChildID)
            }
            state.latestChildID = id
            state.activeChildren.insert(id)
            return ((id, transform), superseded)
        }
        superseded?.cancel()
        guard let next else { return }
        next.transform(value).subscribe(ChildSide(inner: self, id: next.id))
    }

    private func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            fail(error)
        case .finished:
            let done = state.withLock { state -> Bool in
                guard !state.terminated else { return false }
                state.upstreamFinished = true
                state.upstream = nil
                state.transform = nil
                return state.activeChildren.isEmpty
            }
            if done { outbox.complete(.finished) }
        }
    }

    // MARK: Child events

    private func childSubscribed(_ id: Int, _ subscription: Subscription) -> Bool {
        let (accepted, unlimited) = state.withLock { state -> (Bool, Bool) in
            guard !state.terminated, state.activeChildren.contains(id) else { return (false, false) }
            state.childSubscriptions[id] = subscription
            return (true, state.unlimited)
        }
        if accepted {
            subscription.request(unlimited ? .unlimited : .max(1))
        } else {
            subscription.cancel()
        }
        return accepted
    }

    private func childReceived(_ id: Int, _ value: Child.Output, from subscription: Subscription?) {
        if switchToLatest {
            let current = state.withLock { $0.latestChildID == id && !$0.terminated }
            guard current else { return }
        }
        if state.withLock({ $0.unlimited }) {
            outbox.enqueue(value)
        } else {
            outbox.enqueue(value) { subscription?.request(.max(1)) }
        }
    }

    private func childCompleted(_ id: Int, _ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            let current = state.withLock { $0.activeChildren.contains(id) }
            if current { fail(error) }
        case .finished:
            let (wasActive, done, upstream) = state.withLock { state -> (Bool, Bool, Subscription?) in
                guard state.activeChildren.remove(id) != nil else { return (false, false, nil) }
                state.childSubscriptions[id] = nil
                return (true, state.upstreamFinished && state.activeChildren.isEmpty, state.upstream)
            }
            guard wasActive else { return }
            if done {
                outbox.complete(.finished)
            } else if maxPublishers != .unlimited {
                upstream?.request(.max(1))
            }
        }
    }

    // MARK: Sides

    struct UpstreamSide: Subscriber, CustomStringConvertible {
        typealias Input = UpstreamOutput
        typealias Failure = Downstream.Failure
        let inner: MergeInner
        let combineIdentifier = CombineIdentifier()
        var description: String { inner.description }

        func receive(subscription: Subscription) { inner.upstreamSubscribed(subscription) }
        func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
            inner.upstreamReceived(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) { inner.upstreamCompleted(completion) }
    }

    /// Its `subscription` is written once in `receive(subscription:)` and read in the child's
    /// later, serialised calls.
    final class ChildSide: Subscriber, CustomStringConvertible {
        typealias Input = Child.Output
        typealias Failure = Child.Failure
        let inner: MergeInner
        let id: Int
        var subscription: Subscription?

        init(inner: MergeInner, id: Int) {
            self.inner = inner
            self.id = id
        }

        var description: String { inner.description }

        func receive(subscription: Subscription) {
            self.subscription = subscription
            if !inner.childSubscribed(id, subscription) { self.subscription = nil }
        }
        func receive(_ input: Child.Output) -> Subscribers.Demand {
            inner.childReceived(id, input, from: subscription)
            return .none
        }
        func receive(completion: Subscribers.Completion<Failure>) {
            subscription = nil
            inner.childCompleted(id, completion)
        }
    }
}
