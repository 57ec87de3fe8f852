import Synchronization

/// The engine behind ``Publishers/Merge`` and ``Publishers/MergeMany`` (``Publishers/FlatMap``
/// has its own, ``FlatMapEngine``, and ``Publishers/SwitchToLatest`` ``SwitchToLatestEngine``):
/// an upstream of values that are turned into child publishers, whose values are merged into
/// one downstream.
///
/// Demand: as in Combine, the upstream is asked for `maxPublishers` children as soon as it hands
/// over its subscription (one more each time a child finishes, when bounded), and every child is
/// asked for one value at a time — the next one only after its previous value was
/// delivered — so at most one value per child waits in the ``Outbox``.
///
/// Once the downstream's demand is `.unlimited`, every child (current and future) is asked for
/// `.unlimited` instead, so fast or concurrent sources (subjects) are not throttled.
///
/// Completion: `.finished` once the upstream has finished and every child has finished; the first
/// failure (upstream or child) cancels everything else and is delivered ahead of queued values.
///
/// The active children form an ``EngineChildList``; a child that is no longer in the list is
/// finished or cancelled, and its values are dropped. Inlinable, so the operators that build it
/// in the subscriber's code run specialised.
///
/// Thread-safety: every stored `var` here and the list fields of every child are read
/// and written only under `mutex`, which is never held while calling out; delivery goes through
/// the outbox, which serialises it.
@usableFromInline
final class MergeEngine<UpstreamOutput, Child: Publisher, Downstream: Subscriber>: SpecializedSubscription,
    ChildPublisherEngine, CombineReflectable, @unchecked Sendable
where Child.Output == Downstream.Input, Child.Failure == Downstream.Failure {
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias ChildSide = EngineChildSide<MergeEngine>

    @usableFromInline let mutex = RawMutex()
    @exclusivity(unchecked) @usableFromInline var upstream: Subscription?
    @exclusivity(unchecked) @usableFromInline var isUpstreamFinished = false
    @exclusivity(unchecked) @usableFromInline var isUnlimited = false
    /// `unlimited`, readable without the mutex (it only ever turns on).
    @usableFromInline let isUnlimitedNow = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var isTerminated = false
    @exclusivity(unchecked) @usableFromInline var children = EngineChildList<MergeEngine>()
    /// Dropped when the stream ends, with whatever the closure captured.
    @exclusivity(unchecked) @usableFromInline var transform: ((UpstreamOutput) -> Child)?
    @usableFromInline let outbox: Outbox<Downstream>
    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline let description: String
    /// The identifier of the subscriber put in front of the upstream, which each child's
    /// subscriber shows as its parent in its mirror, as Combine's do.
    @usableFromInline let upstreamIdentifier = CombineIdentifier()
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<MergeEngine>

    @inlinable
    init(
        downstream: Downstream,
        name: String,
        maxPublishers: Subscribers.Demand,
        transform: @escaping (UpstreamOutput) -> Child
    ) {
        outbox = Outbox(downstream)
        self.description = name
        self.maxPublishers = maxPublishers
        self.transform = transform
        self.specialized = SpecializedEntries()
    }

    @inlinable var hasEnded: Bool { isTerminated }

    deinit {
        mutex.destroy()
    }

    /// Hands the downstream its subscription, then opens delivery. Call before subscribing
    /// upstream.
    @inlinable
    func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        outbox.open()
    }

    @inlinable
    var upstreamSubscriber: EngineUpstreamSide<MergeEngine> { EngineUpstreamSide(engine: self) }

    // MARK: Subscription

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let (_, becameUnlimited, _) = outbox.request(demand)
        guard becameUnlimited else { return }
        var children: [Subscription] = []
        mutex.lock()
        if !isTerminated {
            isUnlimited = true
            isUnlimitedNow.store(true, ordering: .releasing)
            children = self.children.subscriptions
        }
        mutex.unlock()
        for child in children {
            child.request(.unlimited)
        }
    }

    @inlinable
    func cancelNow() {
        outbox.cancel()
        cancelAll()
    }

    @inlinable
    func cancelAll() {
        mutex.lock()
        isTerminated = true
        var subscriptions = children.unlinkAll()
        if let upstream { subscriptions.append(upstream) }
        upstream = nil
        let droppedTransform = transform
        transform = nil
        mutex.unlock()
        _ = droppedTransform  // released outside the lock
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    @inlinable
    func fail(_ error: Failure) {
        cancelAll()
        outbox.complete(.failure(error), dropPending: true)
    }

    // MARK: Upstream events

    @inlinable
    func upstreamSubscribed(_ subscription: Subscription) {
        mutex.lock()
        let accepted = !isTerminated && upstream == nil
        if accepted { upstream = subscription }
        mutex.unlock()
        if !accepted {
            subscription.cancel()
        } else if maxPublishers > 0 {
            subscription.request(maxPublishers)
        }
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            fail(error)
        case .finished:
            mutex.lock()
            guard !isTerminated else {
                mutex.unlock()
                return
            }
            isUpstreamFinished = true
            upstream = nil
            let droppedTransform = transform
            transform = nil
            let done = children.count == 0
            mutex.unlock()
            _ = droppedTransform
            if done { outbox.complete(.finished) }
        }
    }

    // MARK: Child events

    @inlinable
    func childSubscribed(_ child: ChildSide, _ subscription: Subscription) {
        mutex.lock()
        let accepted = !isTerminated && child.isActive && child.subscription == nil
        if accepted { child.subscription = subscription }
        let unlimited = self.isUnlimited
        mutex.unlock()
        if accepted {
            subscription.request(unlimited ? .unlimited : .max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func childReceived(_ child: ChildSide, _ value: Child.Output) -> Subscribers.Demand {
        // Without a demand limit no bookkeeping is needed per value: a value from a finished or
        // cancelled child cannot arrive, one racing a failure or a cancel is dropped by the
        // outbox.
        if isUnlimitedNow.load(ordering: .acquiring) {
            outbox.enqueue(value)
            return .none
        }
        mutex.lock()
        let live = child.isActive && !isTerminated
        let unlimited = self.isUnlimited
        let subscription = unlimited ? nil : child.subscription
        mutex.unlock()
        guard live else { return .none }
        if unlimited {
            outbox.enqueue(value)
        } else {
            outbox.enqueue(value) { subscription?.request(.max(1)) }
        }
        return .none
    }

    @inlinable
    func childCompleted(_ child: ChildSide, _ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            mutex.lock()
            let current = child.isActive
            mutex.unlock()
            if current { fail(error) }
        case .finished:
            mutex.lock()
            guard child.isActive else {
                mutex.unlock()
                return
            }
            let finished = children.unlink(child)
            let done = isUpstreamFinished && children.count == 0
            let upstream = self.upstream
            mutex.unlock()
            _ = finished  // released outside the lock
            if done {
                outbox.complete(.finished)
            } else if maxPublishers != .unlimited {
                upstream?.request(.max(1))
            }
        }
    }
}
