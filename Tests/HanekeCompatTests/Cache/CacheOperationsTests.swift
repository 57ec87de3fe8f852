import CometTestSupport
import Foundation
import HanekeCompat
import Testing

/// set / remove / removeAll / size, and formats with their own levels.
@Suite(.timeLimit(.minutes(10)))
struct CacheOperationsTests {
    init() { TestBase.prepare() }

    private func fetched<T>(_ cache: Cache<T>, _ key: String, format: String = "original") async -> Outcome<T> {
        let outcome = Outcome<T>()
        cache.fetch(key: key, formatName: format, failure: outcome.fail, success: outcome.succeed)
        _ = await outcome.wait()
        return outcome
    }

    @Test func theDiskLevelLivesUnderTheBaseDirectoryByCacheAndFormatName() async {
        let name = TestBase.uniqueName()
        let cache = Cache<String>(name: name)
        cache.set(value: "value", key: "http://haneke.io")
        let file = TestBase.directory.appendingPathComponent("\(name)/original/http%3A%2F%2Fhaneke.io").path
        #expect(await eventually { FileManager.default.fileExists(atPath: file) })
        #expect(cache.cachePath == TestBase.directory.appendingPathComponent(name).path)
    }

    @Test func theCacheAndFormatDirectoriesExistWhenInitReturns() {
        let name = TestBase.uniqueName()
        let cache = Cache<String>(name: name)
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        let root = TestBase.directory.appendingPathComponent(name)
        for format in ["original", "upper"] {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: root.appendingPathComponent(format).path, isDirectory: &isDirectory)
            #expect(exists && isDirectory.boolValue, "\(format)")
        }
    }

    @Test func removeAllDeletesAFileWrittenIntoTheCachePathRightAfterInit() async throws {
        let name = TestBase.uniqueName()
        let cache = Cache<Data>(name: name)
        let file = TestBase.directory.appendingPathComponent("\(name)/original/stray").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(count: 10)))
        let done = Outcome<Void>()
        cache.removeAll { done.succeed(()) }
        #expect(await done.wait())
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func removeDeletesFromMemoryAndDisk() async {
        let name = TestBase.uniqueName()
        let cache = Cache<String>(name: name)
        cache.set(value: "value", key: "key")
        #expect(await eventually { cache.size > 0 })
        cache.remove(key: "key")
        #expect(await fetched(cache, "key").error?.code == -100)
        #expect(cache.size == 0)
        #expect(await fetched(Cache<String>(name: name), "key").error?.code == -100)
    }

    @Test func removeAllEmptiesEveryFormatThenCallsBackOnMain() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        cache.set(value: "a", key: "a")
        let upper = Outcome<String>()
        cache.set(value: "b", key: "b", formatName: "upper", success: upper.succeed)
        #expect(await upper.wait())
        #expect(await eventually { cache.size == 2 })
        let done = Outcome<Void>()
        cache.removeAll { done.succeed(()) }
        #expect(await done.wait())
        #expect(done.allOnMain)
        #expect(cache.size == 0)
        #expect(await fetched(cache, "a").error?.code == -100)
        #expect(await fetched(cache, "b", format: "upper").error?.code == -100)
    }

    @Test func sizeAddsUpTheDiskBytesOfEveryFormat() async {
        let cache = Cache<Data>(name: TestBase.uniqueName())
        cache.addFormat(Format<Data>(name: "double") { $0 + $0 })
        cache.set(value: Data(count: 100), key: "a")
        cache.set(value: Data(count: 100), key: "a", formatName: "double")
        #expect(await eventually { cache.size == 300 })
    }

    @Test func eachFormatHasItsOwnValueForAKey() async {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        cache.set(value: "abc", key: "k")
        let set = Outcome<String>()
        cache.set(value: "abc", key: "k", formatName: "upper", success: set.succeed)
        #expect(await set.wait())
        #expect(await fetched(cache, "k").value == "abc")
        #expect(await fetched(cache, "k", format: "upper").value == "ABC")
    }

    @Test func aFormatWithZeroDiskCapacityServesFromMemoryOnly() async {
        let name = TestBase.uniqueName()
        let cache = Cache<String>(name: name)
        cache.addFormat(Format<String>(name: "memory-only", diskCapacity: 0))
        let outcome = Outcome<String>()
        cache.set(value: "value", key: "k", formatName: "memory-only")
        cache.fetch(key: "k", formatName: "memory-only", success: outcome.succeed)
        #expect(outcome.values == ["value"])
        // The write is swept at once: nothing stays on disk, so another instance misses.
        let formatDirectory = (cache.cachePath as NSString).appendingPathComponent("memory-only")
        let reader = Cache<String>(name: name)
        reader.addFormat(Format<String>(name: "memory-only", diskCapacity: 0))
        // The disk queue writes the file then sweeps it in one step; give the step time to begin,
        // then wait for it to end (under load it was seen half done, size 5, after 200 ms).
        try? await Task.sleep(for: .milliseconds(200))
        #expect(await eventually { fileCount(in: formatDirectory) == 0 && cache.size == 0 })
        #expect(await fetched(reader, "k", format: "memory-only").error?.code == -100)
    }

    @Test func convertToDataDecidesWhatIsWrittenToDisk() async {
        let name = TestBase.uniqueName()
        let cache = Cache<String>(name: name)
        var format = Format<String>(name: "reversed")
        format.convertToData = { Data(String($0.reversed()).utf8) }
        cache.addFormat(format)
        cache.set(value: "abc", key: "k", formatName: "reversed")
        let file = (cache.cachePath as NSString).appendingPathComponent("reversed/k")
        #expect(await eventually { FileManager.default.contents(atPath: file) == Data("cba".utf8) })
    }

    @Test func aFormatAppliesItsTransformOnlyThroughTheCache() {
        let format = Format<String>(name: "upper") { $0.uppercased() }
        #expect(format.apply("a") == "A")
        #expect(Format<String>(name: "identity").apply("a") == "a")
        #expect(Format<String>(name: "identity").diskCapacity == UInt64.max)
    }

    @Test func unreadableBytesOnDiskAreAMissAndAreRemoved() async throws {
        let name = TestBase.uniqueName()
        let cache = Cache<JSON>(name: name)
        let directory = (cache.cachePath as NSString).appendingPathComponent("original")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: directory + "/k"))
        let outcome = await fetched(cache, "k")
        #expect(outcome.error?.code == -100)
        #expect(await eventually { !FileManager.default.fileExists(atPath: directory + "/k") })
    }

    @Test func theSharedCachesHaveHanekesNames() {
        #expect(Shared.imageCache.name == "shared-images")
        #expect(Shared.dataCache.name == "shared-data")
        #expect(Shared.stringCache.name == "shared-strings")
        #expect(Shared.JSONCache.name == "shared-json")
        #expect(Shared.dataCache === Shared.dataCache)
        #expect(Shared.dataCache.cachePath.hasPrefix(TestBase.directory.path))
    }
}
