import Synchronization

/// Serialised, demand-respecting delivery to one downstream subscriber from many threads.
///
/// Multi-source operators (merge, flatMap, switchToLatest, combineLatest, zip) and subjects push
/// values into an outbox from whatever thread their upstreams call on. Whichever thread finds it
/// idle delivers: one value at a time while demand lasts, **outside the lock**, so the
/// downstream may request or cancel re-entrantly. At most one thread is ever inside the
/// downstream, so calls never overlap; a value pushed from inside the downstream's own
/// `receive(_:)` is queued and delivered after that call returns.
///
/// Fast path: a value pushed while nobody is delivering, nothing is queued and there is demand
/// is handed to the downstream at once, without touching the queue: one lock round trip, and a
/// compare-and-swap on an atomic flag word to give the delivery claim up afterwards (a second
/// round trip only if something changed meanwhile). Otherwise it is queued and the thread
/// holding the claim delivers it in order.
///
/// The outbox is created closed: nothing (not even a completion) is delivered until ``open()``
/// is called, which the owner does right after handing the downstream its subscription.
///
/// Inlinable, with its state in stored properties under a ``RawMutex``, so that an owner
/// specialised in the caller's module delivers through specialised code; unspecialised, it pays
/// for no `Locked.withLock` closure with generic results (enums, tuples, arrays), each of which
/// would instantiate generic metadata at run time.
///
/// The downstream lives in its own allocation and the delivering thread calls it in place,
/// without copying (retaining) it per value: while someone is delivering, a cancel leaves
/// releasing the downstream to that thread, which does it once the call returns.
///
/// Thread-safety: every stored `var` is read and written only under `mutex` (dynamic
/// exclusivity checks are off on them because the mutex, not a Swift access, guarantees
/// exclusivity); the downstream (a ``DownstreamCell``) is held from creation until the first of a
/// completion or a cancel, then moved out under the mutex (and released outside it) by whoever
/// holds the delivery claim, or by the canceller when nobody does. `@unchecked Sendable` because the downstream and queued
/// values are only touched under the mutex or by the single delivering thread.
@usableFromInline
final class Outbox<Downstream: Subscriber>: @unchecked Sendable {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Completion = Subscribers.Completion<Downstream.Failure>

    /// A queued value, with an action run after it has been delivered (typically "request one
    /// more from the upstream that produced it").
    @usableFromInline
    struct Pending {
        @usableFromInline let value: Input
        @usableFromInline let afterDelivery: (() -> Void)?

        @inlinable init(value: Input, afterDelivery: (() -> Void)?) {
            self.value = value
            self.afterDelivery = afterDelivery
        }
    }

    @usableFromInline let mutex = RawMutex()
    /// The downstream, held until the first of a completion or a cancel.
    @exclusivity(unchecked) @usableFromInline var cell: DownstreamCell<Downstream>
    /// Whether the outbox is open yet, and whether the downstream completed or cancelled.
    @exclusivity(unchecked) @usableFromInline var status = OutboxStatus.unopened
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline var queue = FIFO<Pending>()
    /// In its own allocation once scheduled (`nil` before): the unspecialised `deinit` would
    /// otherwise look up `Optional<Completion>`'s generic metadata for every outbox.
    @exclusivity(unchecked) @usableFromInline var scheduledCompletion: UnsafeMutablePointer<Completion>?
    /// `claimed`: someone holds the delivery claim (or the outbox is not open yet); everybody
    /// else queues, and a cancel leaves releasing the downstream to the claim's holder.
    /// `dirty`: something changed while it was held (a value queued, demand, a completion or
    /// a cancel), so the holder must look under the mutex before giving the claim up. Changed
    /// only under the mutex, except that the holder gives the claim up with a compare-and-swap
    /// when nothing changed: after a fast-path delivery that takes no second lock round trip.
    @usableFromInline let flags = Atomic<Int>(OutboxFlags.claimed)
    /// ``offer(_:)`` dropped a value since the last request.
    @exclusivity(unchecked) @usableFromInline var hasMissedValue: Bool
    @exclusivity(unchecked) @usableFromInline var hasRequested = false
    @usableFromInline let onReturnedDemand: ((Subscribers.Demand) -> Void)?

    /// - Parameter hasMissedValue: start with the "missed" flag set, so the first request
    ///   reports a missed value (used by current-value subjects to deliver the current value).
    /// - Parameter onReturnedDemand: called (outside the lock) with each non-zero demand the
    ///   downstream returns from `receive(_:)`, after it was added to the outbox's demand; for
    ///   owners that pass demand on to their upstreams.
    @inlinable
    init(
        _ downstream: Downstream,
        hasMissedValue: Bool = false,
        onReturnedDemand: ((Subscribers.Demand) -> Void)? = nil
    ) {
        cell = DownstreamCell(downstream)
        self.hasMissedValue = hasMissedValue
        self.onReturnedDemand = onReturnedDemand
    }

    deinit {
        cell.destroy()
        if let scheduledCompletion {
            scheduledCompletion.deinitialize(count: 1)
            scheduledCompletion.deallocate()
        }
        mutex.destroy()
    }

    @inlinable var queuedCount: Int { queue.count }

    /// Moves the downstream out (the stream ended). Call with the mutex held, when nobody
    /// else is delivering; release the result outside the lock.
    @inlinable
    func takeDownstream() -> Downstream? {
        cell.take()
    }

    /// `true` once the downstream completed or cancelled.
    @inlinable
    var isTerminated: Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return status.isTerminated
    }

    /// The downstream while the outbox is live (for handing it its subscription).
    @inlinable
    var downstreamIfLive: Downstream? {
        mutex.lock()
        defer { mutex.unlock() }
        return status.isTerminated ? nil : cell.value
    }

    /// The demand not yet used up, for views such as mirrors.
    @usableFromInline
    var shownDemand: Subscribers.Demand {
        mutex.lock()
        defer { mutex.unlock() }
        return demand
    }

    /// Starts delivery, once the downstream has its subscription; later calls do nothing.
    @inlinable
    func open() {
        mutex.lock()
        let dropped: Downstream?
        switch status {
        case .unopened:
            status = .open
            dropped = nil
        case .cancelledUnopened:
            status = .terminated
            // The cancel left the release to whoever opens.
            dropped = takeDownstream()
        case .open, .terminated:
            mutex.unlock()
            return
        }
        flags.store(0, ordering: .releasing)
        mutex.unlock()
        _ = dropped
        drain()
    }

    /// Queues a value regardless of demand; it waits until the downstream demands it.
    /// Returns `false` (dropping the value) if the outbox has terminated.
    @inlinable @discardableResult
    func enqueue(_ value: Input, afterDelivery: (() -> Void)? = nil) -> Bool {
        mutex.lock()
        guard !status.isTerminated, scheduledCompletion == nil else {
            mutex.unlock()
            return false
        }
        if queue.isEmpty && demand > 0 && flags.load(ordering: .acquiring) & OutboxFlags.claimed == 0 {
            deliverNow(value)
            afterDelivery?()
            finishDelivery()
            return true
        }
        queue.append(Pending(value: value, afterDelivery: afterDelivery))
        claimOrMarkDirty()
        return true
    }

    /// Queues a value only if there is unreserved demand for it (subject semantics: values
    /// sent without demand are dropped). A dropped value sets the "missed" flag that
    /// ``request(_:)`` reports. Returns whether the value was accepted.
    @inlinable @discardableResult
    func offer(_ value: Input) -> Bool {
        mutex.lock()
        guard !status.isTerminated, scheduledCompletion == nil else {
            mutex.unlock()
            return false
        }
        guard demand > queuedCount else {
            hasMissedValue = true
            mutex.unlock()
            return false
        }
        if queue.isEmpty && flags.load(ordering: .acquiring) & OutboxFlags.claimed == 0 {
            deliverNow(value)
            finishDelivery()
            return true
        }
        queue.append(Pending(value: value, afterDelivery: nil))
        claimOrMarkDirty()
        return true
    }

    /// The fast path. Called with the mutex held, nobody delivering, nothing queued and demand
    /// for one value: claims delivery, releases the mutex and delivers `value`. The caller then
    /// runs ``finishDelivery()``.
    @inlinable
    func deliverNow(_ value: Input) {
        flags.store(OutboxFlags.claimed, ordering: .relaxed)  // nobody else changes it while unclaimed
        if demand != .unlimited { demand -= 1 }
        mutex.unlock()
        deliver(value)
    }

    /// The claim's holder is done with a delivery: gives the claim up at once if nothing
    /// changed meanwhile, and otherwise goes on under the mutex.
    @inlinable
    func finishDelivery() {
        if flags.compareExchange(expected: OutboxFlags.claimed, desired: 0, ordering: .acquiringAndReleasing).exchanged
        {
            return
        }
        drainClaimed()
    }

    /// Called with the mutex held after a change the claim's holder must see; releases the
    /// mutex. Marks the change for the holder, or, when nobody holds the claim (possibly
    /// because the holder just gave it up), takes it and delivers.
    @inlinable
    func claimOrMarkDirty() {
        let old = flags.bitwiseOr(OutboxFlags.dirty, ordering: .acquiringAndReleasing).oldValue
        if old & OutboxFlags.claimed != 0 {
            mutex.unlock()
            return
        }
        flags.store(OutboxFlags.claimed, ordering: .relaxed)
        mutex.unlock()
        drainClaimed()
    }

    /// Schedules the completion after the queued values (or, with `dropPending`, instead of
    /// them). Later completions and values are ignored.
    @inlinable
    func complete(_ completion: Completion, dropPending: Bool = false) {
        mutex.lock()
        guard !status.isTerminated, scheduledCompletion == nil else {
            mutex.unlock()
            return
        }
        let scheduled = UnsafeMutablePointer<Completion>.allocate(capacity: 1)
        scheduled.initialize(to: completion)
        scheduledCompletion = scheduled
        var dropped = FIFO<Pending>()
        if dropPending {
            dropped = queue.takeAll()
        }
        mutex.unlock()
        _ = dropped  // released outside the lock
        drain()
    }

    /// Adds downstream demand and delivers what it allows.
    ///
    /// - Returns: `firstRequest` is `true` the first time non-zero demand arrives;
    ///   `becameUnlimited` the first time the demand becomes `.unlimited`; `missed` is `true` if
    ///   ``offer(_:)`` dropped a value since the last request (the flag is cleared).
    @inlinable @discardableResult
    func request(_ demand: Subscribers.Demand) -> (firstRequest: Bool, becameUnlimited: Bool, missed: Bool) {
        guard demand > 0 else { return (false, false, false) }
        mutex.lock()
        guard !status.isTerminated else {
            mutex.unlock()
            return (false, false, false)
        }
        let wasUnlimited = self.demand == .unlimited
        self.demand += demand
        let first = !hasRequested
        hasRequested = true
        let missed = hasMissedValue
        hasMissedValue = false
        let becameUnlimited = !wasUnlimited && self.demand == .unlimited
        mutex.unlock()
        drain()
        return (first, becameUnlimited, missed)
    }

    /// Drops the downstream and everything queued. Nothing more is delivered. If a thread is
    /// delivering (possibly this one, from inside the downstream), it releases the downstream
    /// when its call returns.
    @inlinable
    func cancel() {
        mutex.lock()
        switch status {
        case .unopened: status = .cancelledUnopened
        case .open: status = .terminated
        case .cancelledUnopened, .terminated:
            mutex.unlock()
            return
        }
        let droppedQueue = queue.takeAll()
        let old = flags.bitwiseOr(OutboxFlags.dirty, ordering: .acquiringAndReleasing).oldValue
        let droppedDownstream = old & OutboxFlags.claimed != 0 ? nil : takeDownstream()
        mutex.unlock()
        // Released here, outside the lock.
        _ = droppedDownstream
        _ = droppedQueue
    }

    /// Delivers queued values while demand lasts, from at most one thread at a time.
    @inlinable
    func drain() {
        mutex.lock()
        guard !status.isTerminated else {
            mutex.unlock()
            return
        }
        claimOrMarkDirty()
    }

    /// The delivery loop of the thread that holds the claim; gives it up when there is nothing
    /// more it may deliver, releasing the downstream if the stream has ended.
    @inlinable
    func drainClaimed() {
        while true {
            mutex.lock()
            // Everything is looked at now: clear `dirty` (only the holder changes `flags`
            // outside the mutex, and that is this thread).
            flags.store(OutboxFlags.claimed, ordering: .relaxed)
            if status.isTerminated {
                flags.store(0, ordering: .releasing)
                let dropped = takeDownstream()
                mutex.unlock()
                _ = dropped
                return
            }
            if !queue.isEmpty && demand > 0 {
                if demand != .unlimited { demand -= 1 }
                let pending = queue.popFirst()
                mutex.unlock()
                deliver(pending.value)
                pending.afterDelivery?()
                continue
            }
            if queue.isEmpty, let scheduled = scheduledCompletion {
                let completion = scheduled.pointee
                status = .terminated
                flags.store(0, ordering: .releasing)
                let downstream = takeDownstream()
                mutex.unlock()
                downstream?.receive(completion: completion)
                return
            }
            flags.store(0, ordering: .releasing)
            mutex.unlock()
            return
        }
    }

    /// Calls the downstream in place (no lock held; only the claim's holder gets here, and the
    /// downstream stays initialised while it holds the claim) and adds the demand it returns.
    @inlinable
    func deliver(_ value: Input) {
        let extra = cell.live.receive(value)
        if extra > 0 {
            mutex.lock()
            demand += extra
            mutex.unlock()
            onReturnedDemand?(extra)
        }
    }

}

/// Where an ``Outbox`` stands: opened by its owner once, terminated by a completion or a cancel.
/// Payload-free, so it is stored in one byte and compared as cheaply as a `Bool`.
@usableFromInline
enum OutboxStatus: UInt8 {
    /// Created: nothing is delivered until ``Outbox/open()``, and the `claimed` bit of the flags
    /// stands for the opening.
    case unopened
    /// Delivering values while demand lasts.
    case open
    /// Cancelled before opening: nobody delivered, so ``Outbox/open()`` releases the downstream.
    case cancelledUnopened
    /// The downstream completed or cancelled: nothing more is accepted or delivered.
    case terminated

    /// Nothing more is accepted or delivered.
    @inlinable var isTerminated: Bool { self == .cancelledUnopened || self == .terminated }
}

/// The bits of ``Outbox``'s `flags` word (not generic, so no metadata is needed to read them).
@usableFromInline
enum OutboxFlags {
    /// Someone holds the delivery claim, or the outbox is not open yet.
    @inlinable static var claimed: Int { 1 }
    /// Something changed while the claim was held: its holder must look under the mutex.
    @inlinable static var dirty: Int { 2 }
}
