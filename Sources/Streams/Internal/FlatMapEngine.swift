#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine behind ``Publishers/FlatMap``: an upstream of values, each turned into a child
/// publisher whose values are merged into one downstream, with Combine's demand:
///
/// - the upstream is asked for `maxPublishers` children as soon as it hands over its
///   subscription (even `.none`), and for one more each time a child finishes (when bounded);
/// - a child is asked for one value when it subscribes (`.unlimited` once the downstream's
///   demand is unlimited). A value that finds demand goes downstream at once and the child is
///   given one more through `receive(_:)`'s return; one that finds none waits in a queue and
///   returns `.none`. When the downstream requests, queued values go first, and the child of
///   each one so delivered is asked for one more;
/// - a request made from inside the downstream's `receive(_:)` only adds to the demand (the
///   delivery in progress goes on with it), and values a child sends while it is being asked
///   for more wait in the queue.
///
/// Completion: `.finished` once the upstream has finished, every child has finished and the
/// queue is empty. The first failure drops the queue, cancels the other children and goes
/// downstream; a failing child is not cancelled, nor is a failed upstream. A child's failure
/// cancels the upstream too (Combine leaves it running: an upstream kept after the stream
/// ended would keep the operator alive, see `docs/streams-differences.md`).
///
/// Serialisation without a lock held while calling out: one thread at a time owns delivery.
/// The owner may re-enter (a child that sends from inside the downstream's `receive(_:)` is
/// delivered there, as Combine's recursive lock allows); a value or a completion from another
/// thread meanwhile waits, and the owner delivers it before giving ownership up. Nothing is
/// delivered after the completion or a cancel, and the downstream is released at the end.
///
/// Thread-safety: every stored `var` (and the list fields of every child) is read and
/// written only under `mutex`, which is never held while calling out; the downstream's
/// cell is held while live and is only touched by the owner of delivery, or under
/// the mutex when nobody owns it.
@usableFromInline
final class FlatMapEngine<UpstreamOutput, Child: Publisher, Downstream: Subscriber>: SpecializedSubscription,
    ChildPublisherEngine, CombineReflectable, @unchecked Sendable
where Child.Output == Downstream.Input, Child.Failure == Downstream.Failure {
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Output = Child.Output
    @usableFromInline typealias ChildSide = EngineChildSide<FlatMapEngine>

    @usableFromInline let mutex = RawMutex()
    @exclusivity(unchecked) @usableFromInline var upstream: Subscription?
    @exclusivity(unchecked) @usableFromInline var status = FlatMapStatus.running
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// Values waiting for demand (or for the owner of delivery), oldest first.
    @exclusivity(unchecked) @usableFromInline var queue = FIFO<(child: ChildSide, value: Output)>()
    /// The thread delivering downstream, and how deeply it re-entered.
    @exclusivity(unchecked) @usableFromInline var owner: pthread_t?
    @exclusivity(unchecked) @usableFromInline var depth = 0
    /// A drain is asking a child for one more value: values that arrive meanwhile wait.
    @exclusivity(unchecked) @usableFromInline var isAskingChild = false
    /// A failure that arrived while another thread was delivering, for the owner to deliver.
    @exclusivity(unchecked) @usableFromInline var pendingFailure: Failure?
    /// The children subscribed or about to be.
    @exclusivity(unchecked) @usableFromInline var children = EngineChildList<FlatMapEngine>()
    /// Dropped when the upstream ends or the stream does, with whatever the closure captured.
    @exclusivity(unchecked) @usableFromInline var transform: ((UpstreamOutput) -> Child)?
    /// The downstream, held while the stream is live.
    @exclusivity(unchecked) @usableFromInline var cell: DownstreamCell<Downstream>
    @usableFromInline let maxPublishers: Subscribers.Demand
    /// The identifier of the subscriber put in front of the upstream, which each child's
    /// subscriber shows as its parent in its mirror, as Combine's do.
    @usableFromInline let upstreamIdentifier = CombineIdentifier()
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<FlatMapEngine>

    @inlinable
    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (UpstreamOutput) -> Child) {
        cell = DownstreamCell(downstream)
        self.maxPublishers = maxPublishers
        self.transform = transform
        self.specialized = SpecializedEntries()
    }

    @inlinable var hasEnded: Bool { status == .ended }

    deinit {
        cell.destroy()
        mutex.destroy()
    }

    @usableFromInline var description: String { "FlatMap" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }

    @inlinable
    var upstreamSubscriber: EngineUpstreamSide<FlatMapEngine> { EngineUpstreamSide(engine: self) }

    // MARK: Ownership of delivery

    /// Whether the calling thread may deliver now: nobody delivers, or it is the one that does
    /// (re-entering). Call with the mutex held; on `true` the caller owns delivery one level
    /// deeper and must call ``release()`` (with the mutex held) when its call returned.
    @inlinable
    func claim() -> Bool {
        let me = pthread_self()
        if let owner {
            guard pthread_equal(owner, me) != 0 else { return false }
        } else {
            owner = me
        }
        depth += 1
        return true
    }

    /// Gives up one level of ownership (call with the mutex held; returns with it released).
    /// The outermost level first delivers what waited for it: a failure, queued values while
    /// there is demand (asking each one's child for one more), then `.finished` when
    /// everything has finished; a cancel meanwhile releases the downstream here. Returns
    /// whether the stream has ended.
    @inlinable @discardableResult
    func release() -> Bool {
        depth -= 1
        guard depth == 0 else {
            let ended = status == .ended
            mutex.unlock()
            return ended
        }
        while true {
            if status == .ended {
                owner = nil
                let failure = pendingFailure
                pendingFailure = nil
                let downstream = takeDownstream()
                mutex.unlock()
                if let failure { downstream?.receive(completion: .failure(failure)) }
                return true
            }
            if demand > 0, !queue.isEmpty {
                let (child, value) = queue.popFirst()
                let unlimited = demand == .unlimited
                if !unlimited { demand -= 1 }
                depth = 1
                mutex.unlock()
                let extra = cell.live.receive(value)
                mutex.lock()
                depth = 0
                demand += extra
                if !unlimited, status != .ended, let subscription = child.subscription {
                    isAskingChild = true
                    mutex.unlock()
                    subscription.request(.max(1))
                    mutex.lock()
                    isAskingChild = false
                }
                continue
            }
            if status == .upstreamFinished, children.count == 0, queue.isEmpty {
                status = .ended
                owner = nil
                let downstream = takeDownstream()
                let dropped = upstream
                upstream = nil
                mutex.unlock()
                _ = dropped
                downstream?.receive(completion: .finished)
                return true
            }
            owner = nil
            mutex.unlock()
            return false
        }
    }

    /// Moves the downstream out (the stream ended); call with the mutex held, by the owner of
    /// delivery or when nobody owns it; release the result outside the lock.
    @inlinable
    func takeDownstream() -> Downstream? {
        guard cell.isLive else { return nil }
        queue = FIFO()
        return cell.take()
    }

    // MARK: Subscription

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        mutex.lock()
        guard status != .ended else {
            mutex.unlock()
            return
        }
        let becameUnlimited = demand == .unlimited && self.demand != .unlimited
        self.demand += demand
        let children = becameUnlimited ? self.children.subscriptions : []
        // From inside the downstream's `receive(_:)` (or while another thread delivers) the
        // demand is only added: the owner goes on with it.
        if claim() {
            release()
        } else {
            mutex.unlock()
        }
        for child in children {
            child.request(.unlimited)
        }
    }

    @inlinable
    func cancelNow() {
        mutex.lock()
        guard status != .ended else {
            mutex.unlock()
            return
        }
        let subscriptions = endLocked(keeping: nil, cancelUpstream: true)
        let downstream = owner == nil ? takeDownstream() : nil
        mutex.unlock()
        _ = downstream
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    /// Ends the stream: unlinks every child and returns the subscriptions to cancel (all but
    /// `keeping`'s, and the upstream's when `cancelUpstream`). Call with the mutex held.
    @inlinable
    func endLocked(keeping: ChildSide?, cancelUpstream: Bool) -> [Subscription] {
        status = .ended
        var subscriptions = children.unlinkAll(keeping: keeping)
        if cancelUpstream, let upstream { subscriptions.append(upstream) }
        upstream = nil
        transform = nil
        return subscriptions
    }

    @inlinable
    func fail(_ error: Failure, from child: ChildSide?) {
        mutex.lock()
        guard status != .ended else {
            mutex.unlock()
            return
        }
        let subscriptions = endLocked(keeping: child, cancelUpstream: child != nil)
        let deliverNow = claim()
        if !deliverNow { pendingFailure = error }
        mutex.unlock()
        for subscription in subscriptions {
            subscription.cancel()
        }
        guard deliverNow else { return }
        // Re-entered from inside a delivery, or nobody delivering: the failure goes now.
        mutex.lock()
        if depth == 1 {
            owner = nil
            depth = 0
            let downstream = takeDownstream()
            mutex.unlock()
            downstream?.receive(completion: .failure(error))
        } else {
            depth -= 1
            mutex.unlock()
            cell.live.receive(completion: .failure(error))
        }
    }

    // MARK: Upstream events

    @inlinable
    func upstreamSubscribed(_ subscription: Subscription) {
        mutex.lock()
        let accepted = status == .running && upstream == nil
        if accepted { upstream = subscription }
        mutex.unlock()
        if accepted {
            subscription.request(maxPublishers)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            fail(error, from: nil)
        case .finished:
            mutex.lock()
            guard status == .running else {
                mutex.unlock()
                return
            }
            status = .upstreamFinished
            let dropped = (upstream, transform)
            upstream = nil
            transform = nil
            if claim() {
                release()
            } else {
                mutex.unlock()
            }
            _ = dropped
        }
    }

    // MARK: Child events

    @inlinable
    func childSubscribed(_ child: ChildSide, _ subscription: Subscription) {
        mutex.lock()
        let accepted = status != .ended && child.isActive && child.subscription == nil
        if accepted { child.subscription = subscription }
        let unlimited = demand == .unlimited
        mutex.unlock()
        if accepted {
            subscription.request(unlimited ? .unlimited : .max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func childReceived(_ child: ChildSide, _ value: Output) -> Subscribers.Demand {
        mutex.lock()
        // As in Combine, a child's value counts until the stream ends, even one it sends after
        // its own completion.
        guard status != .ended else {
            mutex.unlock()
            return .none
        }
        let unlimited = demand == .unlimited
        guard unlimited || (demand > 0 && !isAskingChild), claim() else {
            queue.append((child, value))
            mutex.unlock()
            return .none
        }
        if !unlimited { demand -= 1 }
        mutex.unlock()
        let extra = cell.live.receive(value)
        mutex.lock()
        demand += extra
        release()
        return unlimited ? .none : .max(1)
    }

    @inlinable
    func childCompleted(_ child: ChildSide, _ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .failure(let error):
            mutex.lock()
            let current = child.isActive
            mutex.unlock()
            if current { fail(error, from: child) }
        case .finished:
            mutex.lock()
            guard status != .ended else {
                mutex.unlock()
                return
            }
            let finished = child.isActive ? children.unlink(child) : nil
            let upstream = maxPublishers == .unlimited ? nil : self.upstream
            let endedNow: Bool
            if claim() {
                endedNow = release()
            } else {
                endedNow = status == .ended
                mutex.unlock()
            }
            _ = finished  // released outside the lock
            // As in Combine, every finish asks for one more child (unless the stream ended).
            if !endedNow { upstream?.request(.max(1)) }
        }
    }
}

/// Where a ``FlatMapEngine`` stands. Payload-free, so it is stored in one byte and compared as
/// cheaply as a `Bool`.
@usableFromInline
enum FlatMapStatus: UInt8 {
    /// The upstream may still hand over values, each one a new child.
    case running
    /// The upstream finished: the stream finishes once every child has and the queue is empty.
    case upstreamFinished
    /// Finished, failed or cancelled: nothing more is accepted.
    case ended
}
