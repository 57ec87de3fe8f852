/// `switchToLatest()`'s subscriber to the upstream of inner publishers, and the downstream's
/// subscription (see ``Publishers/SwitchToLatest``).
///
/// Inner publishers are numbered; events from any but the latest are ignored. Demand is kept
/// here: the downstream's requests add to it and go to the current inner subscription, each
/// value delivered takes one, and a new inner subscription is asked for what is outstanding.
/// Contract violations trap in debug builds as Combine's do (an inner value beyond the demand,
/// an inner completion before its subscription); release builds drop the value or go on.
///
/// Inlinable, with its state in stored properties under a ``RawMutex`` (no `Locked` closures),
/// so that it runs specialised in the subscriber's code and instantiates no generic metadata
/// per value. Thread-safety: every stored `var` is read and written only under `mutex`, which
/// is never held while calling out.
@usableFromInline
final class SwitchToLatestEngine<Inner: Publisher, Downstream: Subscriber>: Subscriber, SpecializedSubscription,
    CombineReflectable, @unchecked Sendable
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    @usableFromInline typealias Input = Inner
    @usableFromInline typealias Failure = Inner.Failure

    @usableFromInline let mutex = RawMutex()
    /// The downstream, held while the stream is live.
    @exclusivity(unchecked) @usableFromInline var cell: DownstreamCell<Downstream>
    @exclusivity(unchecked) @usableFromInline var outer = SubscriptionSlot()
    @exclusivity(unchecked) @usableFromInline var inner = SubscriptionSlot()
    @exclusivity(unchecked) @usableFromInline var currentIndex: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var nextIndex: UInt64 = 1
    @exclusivity(unchecked) @usableFromInline var status = SwitchToLatestStatus.running
    /// The latest inner publisher was subscribed to and has not handed over its subscription.
    @exclusivity(unchecked) @usableFromInline var isAwaitingInnerSubscription = false
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<SwitchToLatestEngine>

    @inlinable
    init(downstream: Downstream) {
        cell = DownstreamCell(downstream)
        specialized = SpecializedEntries()
    }

    deinit {
        cell.destroy()
        mutex.destroy()
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    /// The downstream while live; call with the mutex held.
    @inlinable var downstream: Downstream? { cell.value }

    /// Marks the completion as sent and hands back the downstream to tell, once; call with the
    /// mutex held, while the status is live.
    @inlinable
    func end() -> Downstream? {
        status = .completed
        return cell.take()
    }

    // MARK: The upstream of inner publishers

    @inlinable
    func receive(subscription: Subscription) {
        mutex.lock()
        let accepted = !outer.isSet && status.isLive
        if accepted { outer = SubscriptionSlot(subscription) }
        mutex.unlock()
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Inner) -> Subscribers.Demand {
        mutex.lock()
        guard status == .running else {
            mutex.unlock()
            return .none
        }
        let previous = inner.take()
        let index = nextIndex
        currentIndex = index
        nextIndex += 1
        isAwaitingInnerSubscription = true
        mutex.unlock()
        previous.cancel()
        input.subscribe(SwitchToLatestSide(outer: self, index: index))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        mutex.lock()
        outer = SubscriptionSlot()
        guard status.isLive else {
            mutex.unlock()
            return
        }
        if case .finished = completion, isAwaitingInnerSubscription || inner.isSet {
            status = .upstreamFinished
            mutex.unlock()
            return
        }
        let current = inner.take()
        let downstream = end()
        mutex.unlock()
        current.cancel()
        downstream?.receive(completion: completion)
    }

    // MARK: The downstream's subscription

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        mutex.lock()
        guard status.isLive else {
            mutex.unlock()
            return
        }
        self.demand += demand
        let current = inner
        mutex.unlock()
        current.request(demand)
    }

    @inlinable
    func cancelNow() {
        mutex.lock()
        status = .cancelled
        let ended = (inner.take(), outer.take(), cell.take())
        mutex.unlock()
        ended.0.cancel()
        ended.1.cancel()
        // The downstream is released when `ended` goes, outside the lock.
    }

    // MARK: The current inner publisher

    @inlinable
    func receiveInner(subscription: Subscription, _ index: UInt64) {
        mutex.lock()
        guard currentIndex == index, status != .cancelled, !inner.isSet else {
            mutex.unlock()
            subscription.cancel()
            return
        }
        isAwaitingInnerSubscription = false
        // After the upstream failed, Combine still asks the late subscription for the
        // outstanding demand; nothing it sends reaches anyone, and it is not kept.
        if status.isLive { inner = SubscriptionSlot(subscription) }
        let outstanding = demand
        mutex.unlock()
        if outstanding > 0 { subscription.request(outstanding) }
    }

    @inlinable
    func receiveInner(_ input: Downstream.Input, _ index: UInt64) -> Subscribers.Demand {
        mutex.lock()
        guard currentIndex == index, status.isLive else {
            mutex.unlock()
            return .none
        }
        guard demand > 0 else {
            mutex.unlock()
            assertionFailure("An inner publisher of switchToLatest sent a value beyond the demand")
            return .none
        }
        if demand != .unlimited { demand -= 1 }
        let downstream = cell.live
        mutex.unlock()
        let extra = downstream.receive(input)
        if extra > 0 {
            mutex.lock()
            if status.isLive { demand += extra }
            mutex.unlock()
        }
        return extra
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Failure>, _ index: UInt64) {
        mutex.lock()
        guard currentIndex == index, status != .cancelled else {
            mutex.unlock()
            return
        }
        let early = isAwaitingInnerSubscription
        isAwaitingInnerSubscription = false
        let finished = inner.take()
        var downstream: Downstream?
        var upstream = SubscriptionSlot()
        if status.isLive {
            switch completion {
            case .finished:
                if status == .upstreamFinished { downstream = end() }
            case .failure:
                upstream = outer.take()
                downstream = end()
                status = .cancelled
            }
        }
        mutex.unlock()
        if early {
            assertionFailure("An inner publisher of switchToLatest completed before its subscription")
        }
        _ = finished  // released outside the lock
        upstream.cancel()
        downstream?.receive(completion: completion)
    }
}

/// Where a ``SwitchToLatestEngine`` stands. Payload-free, so it is stored in one byte and compared
/// as cheaply as a `Bool`.
@usableFromInline
enum SwitchToLatestStatus: UInt8 {
    /// The upstream of inner publishers is live: each new one replaces the current one.
    case running
    /// The upstream finished: the stream finishes when the current inner publisher does.
    case upstreamFinished
    /// The completion went downstream (the upstream failed or finished after the last inner
    /// publisher). A late inner subscription is still asked for the outstanding demand, as
    /// Combine does, and an inner completion still checks the contract.
    case completed
    /// Cancelled by the downstream, or failed by an inner publisher: every event is ignored.
    case cancelled

    /// The downstream is still held: demand counts and the stream may still complete.
    @inlinable var isLive: Bool { self == .running || self == .upstreamFinished }
}

/// The subscriber to one inner publisher of `switchToLatest()`: passes its events to the outer
/// subscriber with its number.
@usableFromInline
struct SwitchToLatestSide<Inner: Publisher, Downstream: Subscriber>: Subscriber, CombineReflectable
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
    @usableFromInline typealias Input = Inner.Output
    @usableFromInline typealias Failure = Inner.Failure

    @usableFromInline let outer: SwitchToLatestEngine<Inner, Downstream>
    @usableFromInline let index: UInt64
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(outer: SwitchToLatestEngine<Inner, Downstream>, index: UInt64) {
        self.outer = outer
        self.index = index
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    /// Combine's child: the outer subscription's identifier.
    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [("parentSubscription", outer.combineIdentifier)])
    }

    @inlinable
    func receive(subscription: Subscription) {
        outer.receiveInner(subscription: subscription, index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        outer.receiveInner(input, index)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        outer.receiveInner(completion: completion, index)
    }
}
