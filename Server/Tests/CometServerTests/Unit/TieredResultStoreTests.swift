import CometServer
import Locking
import Testing

@Suite("Tiered result store")
struct TieredResultStoreTests {
    /// A shared store that counts how often it is asked.
    final class CountingStore: SharedResultStoring {
        private let asked = Locked(0)
        var calls: Int { asked.withLock { $0 } }
        func result(for key: String, ttl: Duration, produce: @Sendable () async throws -> StoredResult) async throws
            -> StoredResult
        {
            asked.withLock { $0 += 1 }
            return try await produce()
        }
    }

    @Test func localHitsDoNotAskTheSharedStore() async throws {
        let shared = CountingStore()
        let store = TieredResultStore(shared: shared)
        let made = StoredResult(bytes: [1, 2, 3], contentType: "image/png", etag: "\"e\"")
        for _ in 0..<5 { #expect(try await store.result(for: "k", ttl: .seconds(60)) { made } == made) }
        #expect(shared.calls == 1)
    }
}
