/// One downstream subscription fed by a succession of upstreams, one at a time.
///
/// Used by operators that switch to a new upstream when the current one completes or fails:
/// ``Publishers/Concatenate``, ``Publishers/Catch``, ``Publishers/TryCatch``,
/// ``Publishers/ReplaceError``, ``Publishers/ReplaceEmpty`` and ``Publishers/Retry``. The relay keeps the demand still outstanding: values delivered
/// from any upstream reduce it, demand returned by the downstream or requested through the
/// relay adds to it, and the next upstream is asked for exactly what remains when it attaches.
/// The downstream sees a single subscription (the relay) for its whole life.
///
/// Inlinable with its state in stored properties under a ``RawMutex``, so that the operators
/// built on it run specialised in the subscriber's code and instantiate no generic metadata.
/// The downstream lives in a ``DownstreamCell`` rather than in a `Downstream?` property, and
/// the current upstream in a ``SubscriptionSlot``, for the reason the cell gives.
///
/// Thread-safety: the demand, the current upstream subscription, the downstream and the
/// terminal flag (every stored `var`) live under a mutex that is never held while calling the
/// downstream or an upstream,
/// so the downstream may request or cancel from inside `receive`. After `cancel()` or a
/// completion nothing more is started towards the downstream (which the relay then lets go of),
/// and an upstream attaching after cancel is cancelled at once.
@usableFromInline
final class Relay<Downstream: Subscriber>: SpecializedSubscription, CombineReflectable, @unchecked Sendable {
    // @unchecked Sendable: its `var`s belong to `mutex`; the rest is immutable.
    @usableFromInline let mutex = RawMutex()
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline var current = SubscriptionSlot()
    @exclusivity(unchecked) @usableFromInline var hasSentSubscription = false
    @exclusivity(unchecked) @usableFromInline var hasForwardedAny = false
    /// Which upstream is current: each ``RelaySide`` is made for one generation, and events
    /// from an earlier one (a second completion, a value after its completion) are ignored.
    @exclusivity(unchecked) @usableFromInline var generation = 0
    /// The downstream, held while the stream is live.
    @exclusivity(unchecked) @usableFromInline var cell: DownstreamCell<Downstream>
    @usableFromInline let description: String
    /// Whether the mirror shows the downstream and the outstanding demand, as Combine's
    /// catch operators do (the others show nothing).
    @usableFromInline let reflectsDemand: Bool
    /// Whether demand the downstream returns from `receive(_:)` is requested from the current
    /// upstream instead of being returned to it, as Combine's retry does.
    @usableFromInline let requestsReturnedDemand: Bool
    /// What to do with events from an upstream before its subscription, and with a
    /// subscription that arrives after the downstream cancelled (see ``ContractPolicy``).
    @usableFromInline let early: ContractPolicy
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<Relay>

    @inlinable
    init(
        downstream: Downstream,
        name: String,
        early: ContractPolicy = .cancelLateSubscription,
        reflectsDemand: Bool = false,
        requestsReturnedDemand: Bool = false
    ) {
        cell = DownstreamCell(downstream)
        self.description = name
        self.early = early
        self.reflectsDemand = reflectsDemand
        self.requestsReturnedDemand = requestsReturnedDemand
        self.specialized = SpecializedEntries()
    }

    deinit {
        cell.destroy()
        mutex.destroy()
    }

    /// The downstream while the relay is live. Call with the mutex held.
    @inlinable
    var downstream: Downstream? {
        cell.value
    }

    @usableFromInline var customMirror: Mirror {
        guard reflectsDemand else { return Mirror(self, children: [:]) }
        mutex.lock()
        let (downstream, demand) = (self.downstream, self.demand)
        mutex.unlock()
        return Mirror(self, children: [downstreamChild(downstream), ("demand", demand)])
    }

    /// Whether `generation`'s upstream is still the current one of a live relay, for its
    /// completion. A completion before that upstream's subscription breaks the contract:
    /// it counts only where the operator forwards it (and traps in debug builds where it
    /// traps, as Combine's do).
    @inlinable
    func isCurrent(_ generation: Int) -> Bool {
        mutex.lock()
        let current = cell.isLive && generation == self.generation
        let early = current && !self.current.isSet
        let repeated = cell.isLive && generation != self.generation
        mutex.unlock()
        if repeated, self.early.contains(.trapRepeatedCompletion) {
            assertionFailure("An upstream completed twice, which breaks the contract")
        }
        guard early else { return current }
        if self.early.contains(.trapCompletion) {
            assertionFailure("A completion arrived before the subscription, which breaks the contract")
        }
        return self.early.contains(.forwardCompletion)
    }

    /// An upstream delivered its subscription. The first one makes the relay send itself to the
    /// downstream; later ones are asked for the outstanding demand.
    @inlinable
    func attach(_ subscription: Subscription, generation: Int) {
        mutex.lock()
        guard let downstream, !current.isSet, generation == self.generation else {
            // One that arrives after a cancel that came before any subscription is cancelled
            // only where the operator's Combine counterpart does; a second or stale one, or
            // one after an attached relay ended, always is.
            let leaveAlone = !cell.isLive && !hasSentSubscription && !early.contains(.cancelLateSubscription)
            mutex.unlock()
            if !leaveAlone { subscription.cancel() }
            return
        }
        current = SubscriptionSlot(subscription)
        if !hasSentSubscription {
            hasSentSubscription = true
            mutex.unlock()
            downstream.receive(subscription: self)
            return
        }
        let demand = self.demand
        mutex.unlock()
        if demand > 0 { subscription.request(demand) }
    }

    /// Delivers a value from the current upstream, keeping the demand count.
    @inlinable
    func forward(_ value: Downstream.Input, generation: Int) -> Subscribers.Demand {
        mutex.lock()
        guard let downstream, generation == self.generation else {
            mutex.unlock()
            return .none
        }
        if !current.isSet {
            // A value before this upstream's subscription breaks the contract.
            let first = !hasSentSubscription
            let forwards = early.contains(first ? .forwardValues : .forwardLaterUpstreamsValues)
            if !forwards {
                mutex.unlock()
                if first, early.contains(.trapValues) {
                    assertionFailure("A value arrived before the subscription, which breaks the contract")
                }
                return .none
            }
        }
        if demand != .unlimited {
            if demand == .none, early.contains(.dropExcessValues) {
                mutex.unlock()
                return .none
            }
            if demand == .none, early.contains(.trapExcessValues) {
                mutex.unlock()
                assertionFailure("A value arrived that was not demanded, which breaks the contract")
                mutex.lock()
            }
            demand -= 1
        }
        hasForwardedAny = true
        mutex.unlock()
        let extra = downstream.receive(value)
        guard extra > 0 else { return .none }
        mutex.lock()
        demand += extra
        guard requestsReturnedDemand else {
            mutex.unlock()
            return extra
        }
        let current = cell.isLive ? self.current : SubscriptionSlot()
        mutex.unlock()
        current.request(extra)
        return .none
    }

    /// Whether any value has been delivered downstream so far (from any upstream).
    @inlinable
    var hasForwarded: Bool {
        mutex.lock()
        defer { mutex.unlock() }
        return hasForwardedAny
    }

    /// The current upstream completed; another one will attach. Returns the generation of the
    /// next upstream's side, or `nil` if the relay has been cancelled meanwhile (then no new
    /// upstream should be subscribed).
    @inlinable
    func detach() -> Int? {
        mutex.lock()
        let previous = current.take()
        generation &+= 1
        let next = cell.isLive ? generation : nil
        mutex.unlock()
        _ = previous  // released outside the lock
        return next
    }

    /// Ends the stream with `completion` (once; ignored after cancel).
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        mutex.lock()
        let ended = cell.take()
        let previous = current.take()
        mutex.unlock()
        _ = previous
        ended?.receive(completion: completion)
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        guard demand > 0 else {
            guard early.contains(.forwardZeroRequests) else { return }
            mutex.lock()
            let current = cell.isLive ? self.current : SubscriptionSlot()
            mutex.unlock()
            current.request(.none)
            return
        }
        mutex.lock()
        guard cell.isLive else {
            mutex.unlock()
            return
        }
        self.demand += demand
        let current = self.current
        mutex.unlock()
        current.request(demand)
    }

    @inlinable
    func cancelNow() {
        mutex.lock()
        let ended = (current.take(), cell.take())
        mutex.unlock()
        // The downstream is released when `ended` goes, outside the lock.
        ended.0.cancel()
    }
}

/// The subscriber a ``Relay`` puts in front of each of its upstreams. As in Combine, it is
/// also the relay's subscription (requests and cancels go to the relay), so code that holds
/// the subscriber it was given can request and cancel through it.
@usableFromInline
struct RelaySide<Input, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable
where Downstream.Input == Input {
    @usableFromInline let relay: Relay<Downstream>
    @usableFromInline let generation: Int
    @usableFromInline let onCompletion: (Subscribers.Completion<Failure>) -> Void
    @usableFromInline let combineIdentifier = CombineIdentifier()

    /// A side for the relay's upstream of `generation` (made before subscribing to it): 0 for
    /// the first, then what ``Relay/detach()`` returned.
    @inlinable
    init(
        relay: Relay<Downstream>, generation: Int = 0, onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.relay = relay
        self.generation = generation
        self.onCompletion = onCompletion
    }

    @usableFromInline var description: String { relay.description }

    @inlinable
    func receive(subscription: Subscription) {
        relay.attach(subscription, generation: generation)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        relay.forward(input, generation: generation)
    }

    /// Only the current upstream's first completion counts.
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard relay.isCurrent(generation) else { return }
        onCompletion(completion)
    }

    @usableFromInline var customMirror: Mirror { relay.customMirror }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        relay.request(demand)
    }

    @usableFromInline
    func cancel() {
        relay.cancel()
    }
}
