import CometTestSupport
import Foundation
import HanekeCompat
import Testing

/// DiskCache: atomic files, size accounting, capacity enforced least-recently-used first.
@Suite(.timeLimit(.minutes(10)))
struct DiskCacheTests {
    private func fetched(_ cache: DiskCache, _ key: String) async -> Outcome<Data> {
        let outcome = Outcome<Data>()
        cache.fetchData(key: key, failure: outcome.fail, success: outcome.succeed)
        _ = await outcome.wait()
        return outcome
    }

    /// Writes `key` and waits for it, then a little more so modification dates differ.
    private func write(_ cache: DiskCache, _ key: String, bytes: Int) async {
        cache.setData(Data(repeating: 1, count: bytes), key: key)
        drain(cache)
        try? await Task.sleep(for: .milliseconds(20))
    }

    private func exists(_ cache: DiskCache, _ key: String) -> Bool {
        FileManager.default.fileExists(atPath: cache.path(forKey: key))
    }

    @Test func storedDataIsFetchedBackOnMain() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        cache.setData(Data("bytes".utf8), key: "key")
        let outcome = await fetched(cache, "key")
        #expect(outcome.values == [Data("bytes".utf8)])
        #expect(outcome.allOnMain)
    }

    @Test func aMissingKeyFailsWithNoSuchFileOnMain() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        let outcome = await fetched(cache, "missing")
        #expect(outcome.error?.domain == NSCocoaErrorDomain)
        #expect(outcome.error?.code == NSFileReadNoSuchFileError)
        #expect(outcome.allOnMain)
    }

    @Test func sizeCountsEachKeyOnceAcrossOverwrites() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        await write(cache, "a", bytes: 100)
        await write(cache, "a", bytes: 40)
        await write(cache, "b", bytes: 10)
        #expect(cache.size == 50)
    }

    @Test func writesLeaveNoTemporaryFilesBehind() async throws {
        let path = TestBase.diskCachePath()
        let cache = DiskCache(path: path)
        for i in 0..<20 { cache.setData(Data(repeating: UInt8(i), count: 1000), key: "same") }
        drain(cache)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["same"])
        #expect(await fetched(cache, "same").value == Data(repeating: 19, count: 1000))
    }

    @Test func aNilDataWritesNothing() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        cache.setData(nil, key: "key")
        drain(cache)
        #expect(!exists(cache, "key"))
        #expect(cache.size == 0)
    }

    @Test func goingOverCapacityDeletesTheOldestFilesFirst() async {
        let cache = DiskCache(path: TestBase.diskCachePath(), capacity: 250)
        await write(cache, "a", bytes: 100)
        await write(cache, "b", bytes: 100)
        await write(cache, "c", bytes: 100)
        #expect(!exists(cache, "a"))
        #expect(exists(cache, "b") && exists(cache, "c"))
        #expect(cache.size == 200)
    }

    @Test func aFetchMakesAKeyRecentlyUsed() async {
        let cache = DiskCache(path: TestBase.diskCachePath(), capacity: 250)
        await write(cache, "a", bytes: 100)
        await write(cache, "b", bytes: 100)
        #expect(await fetched(cache, "a").value != nil)
        drain(cache)
        try? await Task.sleep(for: .milliseconds(20))
        await write(cache, "c", bytes: 100)
        #expect(exists(cache, "a"))
        #expect(!exists(cache, "b"))
        #expect(exists(cache, "c"))
    }

    @Test func loweringCapacityEvictsLeastRecentlyUsed() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        await write(cache, "a", bytes: 100)
        await write(cache, "b", bytes: 100)
        await write(cache, "c", bytes: 100)
        cache.capacity = 150
        drain(cache)
        #expect(cache.size == 100)
        #expect(!exists(cache, "a") && !exists(cache, "b"))
        #expect(exists(cache, "c"))
    }

    @Test func initComputesTheSizeAndEnforcesTheCapacity() async {
        let path = TestBase.diskCachePath()
        let first = DiskCache(path: path)
        await write(first, "a", bytes: 100)
        await write(first, "b", bytes: 100)
        let second = DiskCache(path: path, capacity: 120)
        drain(second)
        #expect(second.size == 100)
        #expect(!exists(second, "a"))
        #expect(exists(second, "b"))
    }

    @Test func removeDataDeletesTheFileAndItsBytes() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        await write(cache, "a", bytes: 100)
        cache.removeData(with: "a")
        drain(cache)
        #expect(!exists(cache, "a"))
        #expect(cache.size == 0)
    }

    @Test func removeAllDataEmptiesTheDirectoryThenCallsBackOnMain() async {
        let path = TestBase.diskCachePath()
        let cache = DiskCache(path: path)
        await write(cache, "a", bytes: 10)
        await write(cache, "b", bytes: 10)
        let done = Outcome<Void>()
        cache.removeAllData { done.succeed(()) }
        #expect(await done.wait())
        #expect(done.allOnMain)
        #expect(fileCount(in: path) == 0)
        #expect(cache.size == 0)
    }

    @Test func updateAccessDateRewritesAMissingFile() async {
        let cache = DiskCache(path: TestBase.diskCachePath())
        cache.updateAccessDate(Data("again".utf8), key: "k")
        #expect(await fetched(cache, "k").value == Data("again".utf8))
    }
}
