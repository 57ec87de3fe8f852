/// The children of a ``ChildPublisherEngine`` that are listed (subscribed or about to be), as
/// an intrusive list: each ``EngineChildSide`` links to the next, so adding and removing one
/// costs no hashing.
///
/// Thread-safety: the list and its nodes' links belong to the engine's mutex; call every
/// member with it held.
@usableFromInline
struct EngineChildList<Engine: ChildPublisherEngine> {
    /// The newest child; the others follow through `next`.
    @usableFromInline var first: EngineChildSide<Engine>?
    @usableFromInline var count = 0

    @inlinable init() {}

    /// Lists `child` (first) and marks it active.
    @inlinable
    mutating func push(_ child: EngineChildSide<Engine>) {
        child.isActive = true
        child.next = first
        first?.previous = child
        first = child
        count += 1
    }

    /// Takes `child` out of the list; returns its subscription (to release or cancel outside
    /// the lock).
    @inlinable
    mutating func unlink(_ child: EngineChildSide<Engine>) -> Subscription? {
        let subscription = child.subscription
        child.subscription = nil
        child.isActive = false
        let next = child.next
        if let previous = child.previous {
            previous.next = next
        } else {
            first = next
        }
        next?.previous = child.previous
        child.next = nil
        child.previous = nil
        count -= 1
        return subscription
    }

    /// Takes every child out of the list; returns their subscriptions but `keeping`'s (to
    /// cancel outside the lock).
    @inlinable
    mutating func unlinkAll(keeping: EngineChildSide<Engine>? = nil) -> [Subscription] {
        var subscriptions: [Subscription] = []
        while let child = first {
            if let subscription = unlink(child), child !== keeping { subscriptions.append(subscription) }
        }
        return subscriptions
    }

    /// The subscriptions of the listed children that have one.
    @inlinable
    var subscriptions: [Subscription] {
        var subscriptions: [Subscription] = []
        var child = first
        while let current = child {
            if let subscription = current.subscription { subscriptions.append(subscription) }
            child = current.next
        }
        return subscriptions
    }
}
