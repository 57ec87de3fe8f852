import Foundation
import Testing
@testable import Comet
import CometTestSupport

extension Caching {
    /// ``DataCache/maximumAge``: entries unused for longer are swept, whatever the size.
    @Suite("DataCache maximum age")
    struct DataCacheMaximumAgeTests {
        /// A cache holding `entries` (key and seconds since last use), swept only on demand.
        private func cache(in dir: borrowing TemporaryDirectory, _ entries: [String: TimeInterval]) throws -> DataCache
        {
            let cache = DataCache(path: dir.url)
            cache.sweepInterval = 3600
            for key in entries.keys { cache[key] = Data(repeating: 1, count: 100) }
            cache.flush()
            for (key, age) in entries { try DataCacheSweepTests.backdate(cache.filePath(for: key)!, secondsAgo: age) }
            return cache
        }

        @Test func sweepDeletesEntriesUnusedForLongerThanTheMaximumAge() throws {
            let dir = try TemporaryDirectory()
            let cache = try cache(in: dir, ["old": 7200, "recent": 60])
            cache.maximumAge = 3600
            cache.sweep()
            #expect(cache["old"] == nil)
            #expect(cache["recent"] != nil)
            #expect(cache.totalCount == 1)
        }

        @Test func withoutAMaximumAgeOldEntriesStay() throws {
            let dir = try TemporaryDirectory()
            let cache = try cache(in: dir, ["old": 365 * 86400])
            cache.sweep()
            #expect(cache["old"] != nil)
        }

        @Test func aReadMakesAnEntryYoungAgain() throws {
            let dir = try TemporaryDirectory()
            let cache = try cache(in: dir, ["used": 7200])
            #expect(cache["used"] != nil)
            cache.maximumAge = 3600
            cache.sweep()
            #expect(cache["used"] != nil)
        }
    }
}
