/// Where processed results live between requests, and how concurrent requests for one result
/// share its making. ``LocalResultStore`` keeps them in this process; a shared implementation
/// (Redis) lets every instance behind a load balancer serve what any instance made.
///
/// Implementations must be thread-safe.
public protocol SharedResultStoring: Sendable {
    /// Returns the result stored for `key`, or makes it with `produce` and stores it for `ttl`.
    /// Concurrent calls for one key make it at most once among the callers that share the store
    /// (a lease). Never fails because of the store itself: a store that cannot be reached falls
    /// back to `produce()`. Errors of `produce` are passed on (and not stored). A cancelled
    /// caller stops waiting at once with `CancellationError`; the making goes on while another
    /// caller waits for it.
    func result(for key: String, ttl: Duration, produce: @escaping @Sendable () async throws -> StoredResult)
        async throws -> StoredResult

    /// The result stored for `key` when the store holds it at hand (in this process), without
    /// suspending; `nil` otherwise, and then ``result(for:ttl:produce:)`` is asked. A cache hit
    /// answered this way costs no task and no suspension.
    func storedResult(for key: String) -> StoredResult?
}

extension SharedResultStoring {
    /// `nil`: a store with nothing at hand answers through ``result(for:ttl:produce:)`` alone.
    public func storedResult(for key: String) -> StoredResult? { nil }
}
