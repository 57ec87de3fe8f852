import Foundation
import Testing
@testable import Comet

extension Caching {
    @Suite("ImageCache")
    struct ImageCacheTests {
        @Test func storedImageIsReturned() {
            let cache = ImageCache(costLimit: 10_000)
            let stored = entry(costing: 400, shade: 7)
            cache["a"] = stored
            #expect(cache["a"]?.image == stored.image)
            #expect(cache["a"]?.isPreview == false)
            #expect(cache["b"] == nil)
        }

        @Test func previewFlagIsKept() {
            let cache = ImageCache(costLimit: 10_000)
            cache["a"] = CachedImage(image: testImage(costing: 40), isPreview: true)
            #expect(cache["a"]?.isPreview == true)
        }

        @Test func readingAnEntryMakesItMostRecentlyUsed() {
            let cache = ImageCache(costLimit: 10_000, countLimit: 3)
            cache["a"] = entry(costing: 40)
            cache["b"] = entry(costing: 40)
            cache["c"] = entry(costing: 40)
            _ = cache["a"]
            #expect(cache.keysByRecency == ["a", "c", "b"])
            cache["d"] = entry(costing: 40)
            #expect(cache["b"] == nil)
            #expect(cache["a"] != nil)
            #expect(cache["c"] != nil)
            #expect(cache["d"] != nil)
        }

        @Test func costLimitEvictsLeastRecentlyUsed() {
            let cache = ImageCache(costLimit: 1000)
            cache.entryCostLimit = 1
            cache["a"] = entry(costing: 400)
            cache["b"] = entry(costing: 400)
            _ = cache["a"]
            cache["c"] = entry(costing: 400)
            #expect(cache["b"] == nil)
            #expect(cache["a"] != nil)
            #expect(cache["c"] != nil)
            #expect(cache.totalCost == 800)
            #expect(cache.totalCount == 2)
        }

        @Test func countLimitEvictsLeastRecentlyUsed() {
            let cache = ImageCache(costLimit: 1_000_000, countLimit: 2)
            cache["a"] = entry(costing: 4)
            cache["b"] = entry(costing: 4)
            cache["c"] = entry(costing: 4)
            #expect(cache.totalCount == 2)
            #expect(cache["a"] == nil)
            #expect(cache["b"] != nil)
            #expect(cache["c"] != nil)
        }

        @Test func entryCostLimitRefusesHugeEntries() {
            let cache = ImageCache(costLimit: 1000)  // entryCostLimit 0.1 → at most 100 bytes
            #expect(cache.entryCostLimit == 0.1)
            cache["small"] = entry(costing: 100)
            cache["huge"] = entry(costing: 104)
            #expect(cache["small"] != nil)
            #expect(cache["huge"] == nil)
            #expect(cache.totalCost == 100)
        }

        @Test func refusedEntryRemovesTheOlderValueUnderItsKey() {
            let cache = ImageCache(costLimit: 1000)
            cache["a"] = entry(costing: 40)
            cache["a"] = entry(costing: 400)
            #expect(cache["a"] == nil)
            #expect(cache.totalCount == 0)
            #expect(cache.totalCost == 0)
        }

        @Test func replacingAnEntryUpdatesTotalCost() {
            let cache = ImageCache(costLimit: 10_000)
            cache["a"] = entry(costing: 400)
            cache["a"] = entry(costing: 80, shade: 9)
            #expect(cache.totalCost == 80)
            #expect(cache.totalCount == 1)
            #expect(cache["a"]?.image == testImage(costing: 80, shade: 9))
        }

        @Test func settingNilRemovesTheEntry() {
            let cache = ImageCache(costLimit: 10_000)
            cache["a"] = entry(costing: 40)
            cache["b"] = entry(costing: 40)
            cache["a"] = nil
            #expect(cache["a"] == nil)
            #expect(cache["b"] != nil)
            #expect(cache.totalCost == 40)
            #expect(cache.removeValue(for: "b") != nil)
            #expect(cache.totalCount == 0)
        }

        @Test func entryExpiresAfterTTL() {
            let clock = ManualClock()
            let cache = ImageCache(costLimit: 10_000, countLimit: .max, clock: { clock.now })
            cache.ttl = 60
            cache["a"] = entry(costing: 40)
            clock.advance(by: 59)
            #expect(cache["a"] != nil)
            clock.advance(by: 2)
            #expect(cache["a"] == nil)
            #expect(cache.totalCount == 0, "an expired entry is removed when read")
            #expect(cache.totalCost == 0)
        }

        @Test func entryKeepsTheTTLInForceWhenStored() {
            let clock = ManualClock()
            let cache = ImageCache(costLimit: 10_000, countLimit: .max, clock: { clock.now })
            cache["forever"] = entry(costing: 40)
            cache.ttl = 10
            cache["short"] = entry(costing: 40)
            clock.advance(by: 1_000_000)
            #expect(cache["forever"] != nil)
            #expect(cache["short"] == nil)
        }

        @Test func removeAllEmptiesTheCache() {
            let cache = ImageCache(costLimit: 10_000)
            cache["a"] = entry(costing: 40)
            cache["b"] = entry(costing: 40)
            cache.removeAll()
            #expect(cache["a"] == nil)
            #expect(cache["b"] == nil)
            #expect(cache.totalCount == 0)
            #expect(cache.totalCost == 0)
            cache["c"] = entry(costing: 40)
            #expect(cache["c"] != nil, "the cache works after removeAll")
        }

        @Test func trimToCostKeepsMostRecentlyUsed() {
            let cache = ImageCache(costLimit: 10_000)
            for key in ["a", "b", "c", "d"] { cache[ImageCacheKey(key)] = entry(costing: 100) }
            _ = cache["a"]
            cache.trim(toCost: 250)
            #expect(cache.totalCost == 200)
            #expect(cache.keysByRecency == ["a", "d"])
        }

        @Test func trimToCountKeepsMostRecentlyUsed() {
            let cache = ImageCache(costLimit: 10_000)
            for key in ["a", "b", "c", "d"] { cache[ImageCacheKey(key)] = entry(costing: 100) }
            _ = cache["b"]
            cache.trim(toCount: 1)
            #expect(cache.keysByRecency == ["b"])
        }

        @Test func loweringCostLimitEvictsAtOnce() {
            let cache = ImageCache(costLimit: 10_000)
            for key in ["a", "b", "c"] { cache[ImageCacheKey(key)] = entry(costing: 400) }
            cache.costLimit = 800
            #expect(cache.totalCost == 800)
            #expect(cache.keysByRecency == ["c", "b"])
        }

        @Test func loweringCountLimitEvictsAtOnce() {
            let cache = ImageCache(costLimit: 10_000)
            for key in ["a", "b", "c"] { cache[ImageCacheKey(key)] = entry(costing: 40) }
            cache.countLimit = 1
            #expect(cache.keysByRecency == ["c"])
        }

        @Test func slotsAreReusedAfterEviction() {
            let cache = ImageCache(costLimit: 1_000_000, countLimit: 8)
            for i in 0..<1000 { cache[ImageCacheKey(i)] = entry(costing: 4) }
            #expect(cache.totalCount == 8)
            #expect(cache.keysByRecency == (992..<1000).reversed().map { ImageCacheKey($0) })
        }

        @Test func defaultCostLimitIsAFractionOfMemoryAtMost512MiB() {
            let limit = ImageCache.defaultCostLimit()
            #expect(limit > 0)
            #expect(limit <= 512 << 20)
            #expect(UInt64(limit) <= ProcessInfo.processInfo.physicalMemory / 5)
            #expect(ImageCache().costLimit == limit)
            #expect(ImageCache().countLimit == .max)
            #expect(ImageCache().ttl == nil)
        }

        @Test func concurrentSetAndGetKeepTheInvariants() async {
            let cache = ImageCache(costLimit: 40_000, countLimit: 300)
            cache.entryCostLimit = 0.5
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        for i in 0..<2_000 {
                            let key = ImageCacheKey("k\((worker * 31 + i) % 500)")
                            switch Int.random(in: 0..<10, using: &generator) {
                            case 0..<4: cache[key] = entry(costing: 4 * Int.random(in: 1...64, using: &generator))
                            case 4: cache[key] = nil
                            case 5 where i % 500 == 0: cache.trim(toCount: 100)
                            default: _ = cache[key]
                            }
                        }
                    }
                }
            }
            #expect(cache.totalCost <= 40_000)
            #expect(cache.totalCount <= 300)
            let keys = cache.keysByRecency
            #expect(keys.count == cache.totalCount)
            #expect(Set(keys).count == keys.count)
            let sum = keys.compactMap { cache[$0]?.cost }.reduce(0, +)
            #expect(sum == cache.totalCost)
        }
    }
}
