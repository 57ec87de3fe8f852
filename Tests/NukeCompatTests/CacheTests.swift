import Foundation
import Testing
import NukeCompat
import CometTestSupport

@Suite("CacheTests", .timeLimit(.minutes(10)))
struct CacheTests {
    /// A cache where every image costs 1, so limits read as counts of images.
    func makeCache(costLimit: Int = 100, countLimit: Int = 100) -> Cache {
        let cache = Cache(costLimit: costLimit, countLimit: countLimit)
        cache.cost = { _ in 1 }
        return cache
    }

    let image = TestImages.image(width: 2, height: 2)

    @Test func totalsFollowSetsAndRemovals() {
        let cache = makeCache()
        cache["a"] = image
        cache["b"] = image
        #expect(cache.totalCount == 2 && cache.totalCost == 2)
        cache["a"] = nil
        #expect(cache.totalCount == 1 && cache.totalCost == 1)
        #expect(cache["a"] == nil && cache["b"] != nil)
    }

    @Test func settingAnExistingKeyReplacesInPlace() {
        let cache = makeCache()
        cache["a"] = image
        cache["a"] = TestImages.image(width: 3, height: 3)
        #expect(cache.totalCount == 1 && cache.totalCost == 1)
        #expect(cache["a"]?.width == 3)
    }

    @Test func countLimitEvictsLeastRecentlyUsedAtOnce() {
        let cache = makeCache(countLimit: 2)
        cache["a"] = image
        cache["b"] = image
        cache["c"] = image
        #expect(cache["a"] == nil)
        #expect(cache["b"] != nil && cache["c"] != nil)
    }

    @Test func costLimitEvictsLeastRecentlyUsedAtOnce() {
        let cache = Cache(costLimit: 10)
        cache.cost = { $0.width }
        cache["a"] = TestImages.image(width: 4, height: 1)
        cache["b"] = TestImages.image(width: 4, height: 1)
        cache["c"] = TestImages.image(width: 4, height: 1)
        #expect(cache["a"] == nil)
        #expect(cache.totalCost == 8)
    }

    @Test func loweringALimitTrims() {
        let cache = makeCache()
        for key in ["a", "b", "c"] { cache[key] = image }
        cache.countLimit = 1
        #expect(cache.totalCount == 1 && cache["c"] != nil)
        cache.countLimit = 100
        cache["d"] = image
        cache.costLimit = 1
        #expect(cache.totalCount == 1 && cache["d"] != nil)
    }

    @Test func readingAnItemProtectsItFromEviction() {
        let cache = makeCache(countLimit: 2)
        cache["a"] = image
        cache["b"] = image
        _ = cache["a"]
        cache["c"] = image
        #expect(cache["a"] != nil)
        #expect(cache["b"] == nil)
    }

    @Test func trimToCount() {
        let cache = makeCache()
        for key in ["a", "b", "c"] { cache[key] = image }
        cache.trim(toCount: 1)
        #expect(cache.totalCount == 1 && cache["c"] != nil)
    }

    @Test func trimToCost() {
        let cache = makeCache()
        for key in ["a", "b", "c"] { cache[key] = image }
        cache.trim(toCost: 2)
        #expect(cache.totalCost == 2 && cache["a"] == nil)
    }

    @Test func removeAll() {
        let cache = makeCache()
        for key in ["a", "b", "c"] { cache[key] = image }
        cache.removeAll()
        #expect(cache.totalCount == 0 && cache.totalCost == 0 && cache["b"] == nil)
        cache["d"] = image
        #expect(cache.totalCount == 1)
    }

    @Test func defaultCostIsTheImageMemoryCost() {
        let cache = Cache()
        let image = TestImages.image(width: 10, height: 10)
        cache["a"] = image
        #expect(cache.totalCost == image.cost)
    }

    @Test func defaultCostLimitIsAShareOfPhysicalMemory() {
        let memory = ProcessInfo.processInfo.physicalMemory
        let expected = memory <= 512 << 20 ? memory / 10 : memory / 5
        #expect(UInt64(Cache.defaultCostLimit()) == expected)
    }

    @Test func requestSubscriptUsesTheCacheKey() {
        let cache = makeCache()
        let request = Request(url: URL(string: "http://example.com/a.jpg")!)
        cache[request] = image
        #expect(cache[Request.cacheKey(for: request)] != nil)
        #expect(cache[Request(url: URL(string: "http://example.com/a.jpg")!)] != nil)
    }

    @Test func survivesConcurrentRandomOperations() {
        let cache = makeCache(costLimit: 50, countLimit: 40)
        let image = self.image
        DispatchQueue.concurrentPerform(iterations: 5000) { index in
            let key = AnyHashable(index % 97)
            switch index % 5 {
            case 0: cache[key] = nil
            case 1: _ = cache[key]
            case 2: cache.trim(toCount: 30)
            default: cache[key] = image
            }
        }
        #expect(cache.totalCount <= 40)
        #expect(cache.totalCost == cache.totalCount)
    }
}
