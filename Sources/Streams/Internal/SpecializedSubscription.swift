/// A subscription of a generic engine whose `request` and `cancel` run its specialised code.
///
/// `request` and `cancel` arrive through the `Subscription` existential, which always runs the
/// unspecialised method of a generic class. The engine keeps ``SpecializedEntries``: two
/// non-capturing closures formed in its `init` (in the subscriber's specialised code) that
/// forward to its specialised bodies, ``requestNow(_:)`` and ``cancelNow()``.
@usableFromInline
protocol SpecializedSubscription: Subscription {
    /// The entries formed in `init`.
    var specialized: SpecializedEntries<Self> { get }
    /// The body of `request(_:)`.
    func requestNow(_ demand: Subscribers.Demand)
    /// The body of `cancel()`.
    func cancelNow()
}

extension SpecializedSubscription {
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        specialized.request(self, demand)
    }

    @inlinable
    func cancel() {
        specialized.cancel(self)
    }
}

/// The forwarding closures of a ``SpecializedSubscription``.
@usableFromInline
struct SpecializedEntries<Owner: SpecializedSubscription> {
    @usableFromInline let request: (Owner, Subscribers.Demand) -> Void
    @usableFromInline let cancel: (Owner) -> Void

    /// Forms the closures; inlined into the owner's `init`, so that they are formed in its
    /// specialised code.
    @inlinable @inline(__always)
    init() {
        request = { $0.requestNow($1) }
        cancel = { $0.cancelNow() }
    }
}
