/// A fast store in front of a shared one: a result found in ``near`` (this process's memory)
/// is served without asking ``far`` (Redis, shared by every instance); one missing from both is
/// made through `far`, so the instances sharing it make each result once, and kept in `near` too.
///
/// Concurrent requests in this process for one result wait for the first (``near``'s
/// single-flight) and only that one goes to `far`. Thread-safe if both stores are.
public struct TieredResultStore: SharedResultStoring {
    /// The store asked first (an in-process ``LocalResultStore``).
    public let near: any SharedResultStoring
    /// The store asked on a miss in ``near`` (a shared ``RedisResultStore``).
    public let far: any SharedResultStoring

    /// A store asking `near`, then `far`.
    public init(near: any SharedResultStoring, far: any SharedResultStoring) {
        self.near = near
        self.far = far
    }

    public func result(for key: String, ttl: Duration, produce: @Sendable () async throws -> StoredResult) async throws -> StoredResult {
        let far = far
        return try await near.result(for: key, ttl: ttl) { try await far.result(for: key, ttl: ttl, produce: produce) }
    }
}
