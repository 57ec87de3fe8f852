/// The subscription of ``Publishers/Drop`` (`dropFirst(_:)`), which is also the subscriber it
/// puts in front of the upstream.
///
/// As Combine's, it is handed to the downstream before the upstream is subscribed to, so the
/// downstream may request at once: demand requested before the upstream's subscription arrives is
/// kept, and the upstream is then asked for it plus the number of values to drop, in one request.
/// Once attached, requests pass straight through; dropped values use up the count asked for
/// beforehand and ask for nothing more. Values and a completion that arrive before the upstream's
/// subscription go downstream (it already has its subscription). A cancel before the upstream's
/// subscription leaves that subscription alone when it comes (neither asked nor cancelled), as
/// Combine does; a second subscription is cancelled.
///
/// Nothing is delivered after the completion or a cancel, and both ends are let go of then
/// (see the deliberate differences in `docs/streams-differences.md`).
///
/// Thread-safety: the state lives under one mutex that is never held while calling out.
@usableFromInline
final class DropFirstSubscription<Downstream: Subscriber>: Subscriber, SpecializedSubscription, CombineReflectable,
    @unchecked Sendable
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let mutex = RawMutex()
    /// The downstream, held while the stream is live.
    @exclusivity(unchecked) @usableFromInline var cell: DownstreamCell<Downstream>
    @exclusivity(unchecked) @usableFromInline var upstream = SubscriptionSlot()
    /// Demand requested before the upstream's subscription arrived.
    @exclusivity(unchecked) @usableFromInline var pending = Subscribers.Demand.none
    /// Values still to drop.
    @exclusivity(unchecked) @usableFromInline var remaining: Int
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<DropFirstSubscription>

    @inlinable
    init(downstream: Downstream, count: Int) {
        cell = DownstreamCell(downstream)
        remaining = count
        specialized = SpecializedEntries()
    }

    deinit {
        cell.destroy()
        mutex.destroy()
    }

    @usableFromInline var description: String { "Drop" }

    @inlinable
    func receive(subscription: Subscription) {
        mutex.lock()
        guard cell.isLive, !upstream.isSet else {
            // After a cancel the subscription is left alone, as Combine leaves it; a second
            // one while attached is cancelled.
            let second = cell.isLive
            mutex.unlock()
            if second { subscription.cancel() }
            return
        }
        upstream = SubscriptionSlot(subscription)
        let demand = remaining > 0 ? pending + .max(remaining) : pending
        pending = .none
        mutex.unlock()
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        mutex.lock()
        guard cell.isLive else {
            mutex.unlock()
            return .none
        }
        if remaining > 0 {
            remaining -= 1
            mutex.unlock()
            return .none
        }
        let downstream = cell.live
        mutex.unlock()
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        mutex.lock()
        let downstream = cell.take()
        let upstream = self.upstream.take()
        mutex.unlock()
        _ = upstream
        downstream?.receive(completion: completion)
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard demand > 0 else { return }
        mutex.lock()
        guard cell.isLive else {
            mutex.unlock()
            return
        }
        guard upstream.isSet else {
            pending += demand
            mutex.unlock()
            return
        }
        let upstream = self.upstream
        mutex.unlock()
        upstream.request(demand)
    }

    @inlinable
    func cancelNow() {
        mutex.lock()
        let ended = (upstream.take(), cell.take())
        mutex.unlock()
        // The downstream is released when `ended` goes, outside the lock.
        ended.0.cancel()
    }
}
