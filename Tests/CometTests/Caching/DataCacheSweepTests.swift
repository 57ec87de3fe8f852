import Foundation
import Testing
@testable import Comet
import CometTestSupport

extension Caching {
    @Suite("DataCache sweep")
    struct DataCacheSweepTests {
        static func bytes(_ count: Int) -> Data { Data(repeating: 0xAB, count: count) }

        /// Sets a file's modification time (the LRU clock) to `secondsAgo` in the past.
        static func backdate(_ path: String, secondsAgo: TimeInterval) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)],
                ofItemAtPath: path)
        }

        /// Entries of 1000 data bytes with one-character keys: 1017 bytes per file.
        static let fileSize = 16 + 1 + 1000

        @Test func sweepTrimsToTheRatioKeepingTheMostRecentlyAccessed() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.sweepInterval = 3600
            for key in ["a", "b", "c", "d", "e"] { cache[key] = Self.bytes(1000) }
            cache.flush()
            // Oldest first: a (500 s ago) … e (100 s ago); then reading "a" makes it the newest.
            for (i, key) in ["a", "b", "c", "d", "e"].enumerated() {
                try Self.backdate(cache.filePath(for: key)!, secondsAgo: Double(500 - 100 * i))
            }
            #expect(cache["a"] != nil)
            cache.sizeLimit = 4 * Self.fileSize  // over by one file; trim to 70 % → 2 files remain
            cache.sweep()
            #expect(cache.totalCount == 2)
            #expect(cache.totalSize <= Int(Double(cache.sizeLimit) * 0.7))
            #expect(cache["a"] != nil, "read most recently")
            #expect(cache["e"] != nil, "written most recently")
            for key in ["b", "c", "d"] { #expect(cache[key] == nil) }
        }

        @Test func sweepUnderTheLimitDeletesNothing() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            for key in ["a", "b", "c"] { cache[key] = Self.bytes(1000) }
            cache.sizeLimit = 3 * Self.fileSize
            cache.sweep()
            #expect(cache.totalCount == 3)
        }

        @Test func periodicSweepHappensWithoutBeingAsked() async throws {
            let dir = try TemporaryDirectory()
            let swept = DataCache(path: dir.url)
            swept.sizeLimit = 3 * Self.fileSize
            swept.sweepInterval = 0.05
            // Another instance (limit 150 MiB) fills the directory; only `swept` can trim it.
            let writer = DataCache(path: dir.url)
            for round in 0..<2 {
                for i in 0..<6 { writer["\(round)-\(i)"] = Self.bytes(1000) }
                writer.flush()
                let trimmed = await eventually {
                    let size = (try? FileManager.default.contentsOfDirectory(atPath: dir.url.path).count) ?? 0
                    return size <= 2
                }
                #expect(trimmed, "round \(round): the periodic sweep trimmed the directory")
            }
        }

        @Test func writesOverTheLimitTriggerASweep() async throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.sweepInterval = 3600
            cache.sizeLimit = 10 * Self.fileSize
            for i in 0..<25 { cache["\(i % 10)\(i)"] = Self.bytes(1000) }
            cache.flush()
            #expect(cache.totalSize <= 10 * Self.fileSize)
        }

        @Test func strayTemporaryFilesAreRemovedBySweep() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            let stale = dir.url.appendingPathComponent(DataCacheFile.temporaryPrefix + "crashed").path
            let fresh = dir.url.appendingPathComponent(DataCacheFile.temporaryPrefix + "in-progress").path
            #expect(FileManager.default.createFile(atPath: stale, contents: Self.bytes(10)))
            #expect(FileManager.default.createFile(atPath: fresh, contents: Self.bytes(10)))
            try Self.backdate(stale, secondsAgo: 3600)
            cache.sweep()
            #expect(!FileManager.default.fileExists(atPath: stale))
            #expect(
                FileManager.default.fileExists(atPath: fresh), "a young temporary file may be another process's write")
            #expect(cache.totalCount == 0, "temporary files are not entries")
        }

        @Test func deletedDirectoryIsRecreatedOnTheNextWrite() throws {
            let dir = try TemporaryDirectory()
            let path = dir.url.appendingPathComponent("nested/cache")
            let cache = DataCache(path: path)
            cache["a"] = Self.bytes(100)
            cache.flush()
            try FileManager.default.removeItem(at: dir.url.appendingPathComponent("nested"))
            #expect(cache["a"] == nil)
            #expect(cache.totalCount == 0)
            cache["b"] = Self.bytes(100)
            cache.flush()
            #expect(FileManager.default.fileExists(atPath: path.path))
            #expect(DataCache(path: path)["b"] == Self.bytes(100))
        }

        @Test func readMarksTheFileAsRecentlyUsed() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(100)
            cache.flush()
            let file = cache.filePath(for: "a")!
            try Self.backdate(file, secondsAgo: 3600)
            _ = cache["a"]
            let modified = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as! Date
            #expect(modified.timeIntervalSinceNow > -600)
        }
    }
}
