/// A ``LocalResultStore`` in front of a shared store (Redis): hits in this process cost no
/// network round trip, concurrent requests in this process make one call to the shared store,
/// and the shared store's lease makes a result once across instances.
///
/// Thread-safe (both stores are).
public struct TieredResultStore: SharedResultStoring {
    /// The in-process tier, asked first.
    public let local: LocalResultStore
    /// The tier shared by instances, asked on a local miss.
    public let shared: any SharedResultStoring

    /// Puts `local` in front of `shared`.
    public init(local: LocalResultStore = LocalResultStore(), shared: any SharedResultStoring) {
        self.local = local
        self.shared = shared
    }

    public func storedResult(for key: String) -> StoredResult? {
        local.storedResult(for: key)
    }

    public func result(for key: String, ttl: Duration, produce: @escaping @Sendable () async throws -> StoredResult)
        async throws -> StoredResult
    {
        try await local.result(for: key, ttl: ttl) { [shared] in
            try await shared.result(for: key, ttl: ttl, produce: produce)
        }
    }
}
