import Foundation
import Testing
@testable import Comet
import CometTestSupport

extension Caching {
    /// ``DataCache/maximumAge``: entries unused for longer are swept, whatever the size.
    @Suite("DataCache maximum age")
    struct DataCacheMaximumAgeTests {
        @Test func sweepDeletesEntriesUnusedForLongerThanTheMaximumAge() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.sweepInterval = 3600
            for key in ["old", "recent"] { cache[key] = Data(repeating: 1, count: 100) }
            cache.flush()
            try DataCacheSweepTests.backdate(cache.filePath(for: "old")!, secondsAgo: 7200)
            try DataCacheSweepTests.backdate(cache.filePath(for: "recent")!, secondsAgo: 60)
            cache.maximumAge = 3600
            cache.sweep()
            #expect(cache["old"] == nil)
            #expect(cache["recent"] != nil)
            #expect(cache.totalCount == 1)
        }

        @Test func withoutAMaximumAgeOldEntriesStay() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.sweepInterval = 3600
            cache["old"] = Data(repeating: 1, count: 100)
            cache.flush()
            try DataCacheSweepTests.backdate(cache.filePath(for: "old")!, secondsAgo: 365 * 86400)
            cache.sweep()
            #expect(cache["old"] != nil)
        }

        @Test func aReadMakesAnEntryYoungAgain() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.sweepInterval = 3600
            cache["used"] = Data(repeating: 1, count: 100)
            cache.flush()
            try DataCacheSweepTests.backdate(cache.filePath(for: "used")!, secondsAgo: 7200)
            #expect(cache["used"] != nil)
            cache.maximumAge = 3600
            cache.sweep()
            #expect(cache["used"] != nil)
        }
    }
}
