/// An upstream subscription, or none, kept without an `Optional` around the existential.
///
/// `Subscription` is not class-bound, so `Subscription?` is an optional of an opaque existential:
/// each copy or destroy of one goes through the runtime's generic value witnesses of `Optional`,
/// then of the existential, then of the value inside (about a hundred instructions, where a
/// plain existential costs a few), and an operator copies its upstream out of its lock for every
/// request and cancel. The slot keeps a plain existential (an empty placeholder when unset) and
/// a flag instead.
@usableFromInline
struct SubscriptionSlot {
    /// The subscription while ``isSet``; a stateless placeholder otherwise.
    @usableFromInline var value: any Subscription
    @usableFromInline var isSet: Bool

    /// An empty slot.
    @inlinable
    init() {
        value = NoSubscription()
        isSet = false
    }

    /// A slot holding `subscription`.
    @inlinable
    init(_ subscription: any Subscription) {
        value = subscription
        isSet = true
    }

    /// The subscription, if any (builds an optional: for views, not for hot paths).
    @inlinable
    var subscription: (any Subscription)? {
        isSet ? value : nil
    }

    /// Empties the slot and returns what it held.
    @inlinable
    mutating func take() -> SubscriptionSlot {
        let taken = self
        self = SubscriptionSlot()
        return taken
    }

    /// Requests from the subscription, if any.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if isSet { value.request(demand) }
    }

    /// Cancels the subscription, if any.
    @inlinable
    func cancel() {
        if isSet { value.cancel() }
    }
}

/// The placeholder of an empty ``SubscriptionSlot``: it is never handed to anyone.
@usableFromInline
struct NoSubscription: Subscription {
    @inlinable init() {}

    @inlinable func request(_ demand: Subscribers.Demand) {}

    @inlinable func cancel() {}

    @usableFromInline var combineIdentifier: CombineIdentifier { CombineIdentifier() }
}
