/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class-bound and identity-bearing. Requesting values and cancelling are
/// thread-safe for every subscription in this module; `cancel()` is idempotent, and once it
/// returns no new value or completion is started towards the subscriber.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells the publisher that it may send more values to the subscriber.
    ///
    /// The demand adds to any demand still outstanding. Requesting `.none` breaks the contract:
    /// the subscriptions for which Combine checks it (`Just`, `Optional` and `Result`
    /// publishers, `Future`, subjects, `flatMap`, `zip`, `combineLatest`, `collect(_:)` and the
    /// operators that may drop values, such as `dropFirst`) trap in debug builds, as Combine's
    /// do; in release builds the request has no effect. Elsewhere, as in Combine, it has no
    /// effect in any build. (A negative `Demand.max(_:)` always traps: that value cannot exist.)
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
    /// A subscription that does nothing: requests and cancellation are ignored.
    ///
    /// Publishers that complete immediately (``Empty``, ``Fail``) hand this to their subscribers.
    public static var empty: Subscription { EmptySubscription.shared }
}

/// The shared, stateless subscription behind ``Subscriptions/empty``.
final class EmptySubscription: Subscription, CombineReflectable, Sendable {
    static let shared = EmptySubscription()
    let combineIdentifier = CombineIdentifier()
    var description: String { "Empty" }
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
}
