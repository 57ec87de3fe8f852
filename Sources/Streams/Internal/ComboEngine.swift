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
/// Each upstream's values wait, typed, in its own ``ComboStore``; `combine` (built by the typed
/// publisher from its stores) takes one value from each into the downstream's tuple. Inlinable,
/// so the publishers that build it in the subscriber's code run specialised, with no boxing or
/// casts per value.
///
/// Thread-safety: every stored `var` here and in the stores lives under `mutex`, which is never
/// held while calling out (`combine`, called under it, only takes values from the stores).
@usableFromInline
final class ComboEngine<Downstream: Subscriber>: SpecializedSubscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let mutex = RawMutex()
    @exclusivity(unchecked) @usableFromInline var stores: [ComboSlot] = []
    @exclusivity(unchecked) @usableFromInline var demandSoFar = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline var isTerminated = false
    /// For zip, the upstream whose value completed the tuple being delivered, and the demand the
    /// downstream asked for (or returned) meanwhile: as in Combine, that upstream gets it
    /// through its `receive(_:)`'s return instead of a request (the others are asked as usual).
    @exclusivity(unchecked) @usableFromInline var processing: ComboSlot?
    @exclusivity(unchecked) @usableFromInline var demandWhileProcessing = Subscribers.Demand.none
    /// Dropped when the stream ends, with the stores it captured.
    @exclusivity(unchecked) @usableFromInline var combine: (() -> Downstream.Input)?
    @exclusivity(unchecked) @usableFromInline var outbox: Outbox<Downstream>!  // set once in init
    @usableFromInline let isZip: Bool
    @usableFromInline let description: String
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<ComboEngine>

    @inlinable
    init(downstream: Downstream, zip: Bool) {
        self.isZip = zip
        self.description = isZip ? "Zip" : "CombineLatest"
        self.specialized = SpecializedEntries()
        self.outbox = Outbox(downstream) { [unowned self] extra in self.forwardDemand(extra) }
    }

    deinit {
        mutex.destroy()
    }

    /// Adds the store of the next upstream (call once per upstream, in order, before `start`).
    @inlinable
    func store<Value>(_ type: Value.Type) -> ComboStore<Value> {
        let store = ComboStore<Value>()
        stores.append(store)
        return store
    }

    /// Hands the downstream its subscription and opens delivery, combining with `combine`;
    /// then subscribe each upstream with a ``ComboSide`` on its store.
    @inlinable
    func start(_ downstream: Downstream, combine: @escaping () -> Downstream.Input) {
        self.combine = combine
        downstream.receive(subscription: self)
        outbox.open()
    }

    // MARK: Subscription

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard demand > 0 else { return }
        outbox.request(demand)
        forwardDemand(demand)
    }

    @inlinable
    func cancelNow() {
        outbox.cancel()
        cancelUpstreams()
    }

    @inlinable
    func forwardDemand(_ demand: Subscribers.Demand) {
        var subscriptions: [Subscription] = []
        mutex.lock()
        if !isTerminated {
            demandSoFar += demand
            for store in stores {
                if store === processing {
                    demandWhileProcessing += demand
                } else if let subscription = store.subscription {
                    subscriptions.append(subscription)
                }
            }
        }
        mutex.unlock()
        for subscription in subscriptions {
            subscription.request(demand)
        }
    }

    @inlinable
    func cancelUpstreams() {
        var subscriptions: [Subscription] = []
        mutex.lock()
        let first = !isTerminated
        isTerminated = true
        for store in stores {
            if let subscription = store.subscription { subscriptions.append(subscription) }
            store.subscription = nil
        }
        let stores = first ? self.stores : []
        let droppedCombine = combine
        combine = nil
        mutex.unlock()
        // Queued values and the closure are released outside the lock, by the first caller
        // only (once terminated, nobody else touches the stores).
        for store in stores { store.clear() }
        _ = droppedCombine
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    // MARK: Upstream events

    @inlinable
    func subscribed(_ subscription: Subscription, to store: ComboSlot) {
        mutex.lock()
        let accepted = !isTerminated && store.subscription == nil && !store.isFinished
        if accepted { store.subscription = subscription }
        let demand = demandSoFar
        mutex.unlock()
        if !accepted {
            subscription.cancel()
        } else if demand > 0 {
            subscription.request(demand)
        }
    }

    /// Returns the demand the downstream asked for while this value's combination was being
    /// delivered (see ``processing``).
    @inlinable
    func received<Value>(_ value: Value, in store: ComboStore<Value>) -> Subscribers.Demand {
        mutex.lock()
        guard !isTerminated, let combine else {
            mutex.unlock()
            return .none
        }
        store.hasProduced = true
        store.push(value, keepingAll: isZip)
        for other in stores where other.count == 0 {
            mutex.unlock()
            return .none
        }
        let combination = combine()
        var finish = false
        if isZip {
            for other in stores where other.isFinished && other.count == 0 {
                finish = true
            }
        }
        let processes = isZip && processing == nil
        if processes { processing = store }
        mutex.unlock()
        if isZip {
            outbox.enqueue(combination)
        } else {
            outbox.offer(combination)
        }
        var extra = Subscribers.Demand.none
        if processes {
            mutex.lock()
            if !isTerminated { extra = demandWhileProcessing }
            processing = nil
            demandWhileProcessing = .none
            mutex.unlock()
        }
        if finish { finishAll() }
        return extra
    }

    @inlinable
    func completed(_ completion: Subscribers.Completion<Failure>, in store: ComboSlot) {
        switch completion {
        case .failure(let error):
            mutex.lock()
            let live = !isTerminated
            mutex.unlock()
            guard live else { return }
            cancelUpstreams()
            outbox.complete(.failure(error), dropPending: true)
        case .finished:
            mutex.lock()
            guard !isTerminated, !store.isFinished else {
                mutex.unlock()
                return
            }
            store.isFinished = true
            store.subscription = nil
            var done: Bool
            if isZip {
                done = store.count == 0
            } else {
                done = !store.hasProduced
                if !done {
                    done = true
                    for other in stores where !other.isFinished { done = false }
                }
            }
            mutex.unlock()
            if done { finishAll() }
        }
    }

    @inlinable
    func finishAll() {
        cancelUpstreams()
        outbox.complete(.finished)
    }
}

/// One upstream's bookkeeping in a ``ComboEngine``, without its values' type (so the inner can
/// keep all of them in one array). Its stored `var`s belong to the inner's mutex.
@usableFromInline
class ComboSlot: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var subscription: Subscription?
    @exclusivity(unchecked) @usableFromInline var isFinished = false
    @exclusivity(unchecked) @usableFromInline var hasProduced = false
    /// The number of values waiting.
    @exclusivity(unchecked) @usableFromInline var count = 0

    @inlinable init() {}

    /// Drops the waiting values (the stream ended).
    @usableFromInline func clear() {}
}

/// The values one upstream of a ``ComboEngine`` has produced and not yet combined: a queue for
/// zip, the latest value for combineLatest.
@usableFromInline
final class ComboStore<Value>: ComboSlot, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var values = FIFO<Value>()

    @inlinable override init() {}

    /// Keeps `value`: after the others (`keepingAll`, zip) or instead of them (combineLatest).
    @inlinable
    func push(_ value: Value, keepingAll: Bool) {
        if keepingAll || values.isEmpty {
            values.append(value)
            count += 1
        } else {
            values.replaceLast(with: value)
        }
    }

    /// The next value for zip: removed from the queue.
    @inlinable
    func take() -> Value {
        count -= 1
        return values.popFirst()
    }

    /// The latest value for combineLatest: kept for later combinations.
    @inlinable
    func latest() -> Value {
        values.first
    }

    @usableFromInline override func clear() {
        values = FIFO()
        count = 0
    }
}

/// The subscriber ``ComboEngine`` puts in front of one of its upstreams.
@usableFromInline
struct ComboSide<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline let inner: ComboEngine<Downstream>
    @usableFromInline let store: ComboStore<Input>
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(inner: ComboEngine<Downstream>, store: ComboStore<Input>) {
        self.inner = inner
        self.store = store
    }

    @usableFromInline var description: String { inner.description }

    @inlinable func receive(subscription: Subscription) { inner.subscribed(subscription, to: store) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        inner.received(input, in: store)
    }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { inner.completed(completion, in: store) }
}
