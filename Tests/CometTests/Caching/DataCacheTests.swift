import Foundation
import Testing
@testable import Comet

extension Caching {
    @Suite("DataCache")
    struct DataCacheTests {
        static func bytes(_ count: Int, seed: UInt8 = 1) -> Data {
            Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
        }

        @Test func readBeforeFlushSeesTheStagedWrite() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.storeData(Self.bytes(1000), for: "a")
            #expect(cache.cachedData(for: "a") == Self.bytes(1000))
            #expect(cache["b"] == nil)
        }

        @Test func readAfterFlushComesFromTheFile() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(1000)
            cache.flush()
            #expect(cache.state.withLock { $0.staging.isEmpty }, "flush applied every staged change")
            #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "a")!))
            #expect(cache["a"] == Self.bytes(1000))
        }

        @Test func emptyDataRoundTrips() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["empty"] = Data()
            cache.flush()
            #expect(DataCache(path: dir.url)["empty"] == Data())
        }

        @Test func newInstanceReadsWhatThePreviousOneFlushed() throws {
            let dir = try TemporaryDirectory()
            do {
                let cache = DataCache(path: dir.url)
                cache["https://example.com/a.jpg"] = Self.bytes(5000, seed: 3)
                cache.flush()
            }
            let reopened = DataCache(path: dir.url)
            #expect(reopened["https://example.com/a.jpg"] == Self.bytes(5000, seed: 3))
        }

        @Test func laterStoreReplacesEarlierOne() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(10, seed: 1)
            cache["a"] = Self.bytes(20, seed: 2)
            #expect(cache["a"] == Self.bytes(20, seed: 2))
            cache.flush()
            #expect(DataCache(path: dir.url)["a"] == Self.bytes(20, seed: 2))
            #expect(cache.totalCount == 1)
        }

        @Test func removeDataRemovesStagedAndFlushedEntries() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["flushed"] = Self.bytes(10)
            cache.flush()
            cache["staged"] = Self.bytes(10)
            cache.removeData(for: "flushed")
            cache["staged"] = nil
            #expect(cache["flushed"] == nil)
            #expect(cache["staged"] == nil)
            cache.flush()
            #expect(DataCache(path: dir.url)["flushed"] == nil)
            #expect(cache.totalCount == 0)
        }

        @Test func removeAllRemovesEverythingButLaterWrites() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(10)
            cache.flush()
            cache["b"] = Self.bytes(10)
            cache.removeAll()
            cache["c"] = Self.bytes(10)
            #expect(cache["a"] == nil, "a flushed entry is gone at once, before the background deletion")
            #expect(cache["b"] == nil)
            #expect(cache["c"] == Self.bytes(10))
            cache.flush()
            #expect(cache.totalCount == 1)
            let reopened = DataCache(path: dir.url)
            #expect(reopened["a"] == nil)
            #expect(reopened["c"] == Self.bytes(10))
        }

        @Test func containsDataSeesStagedAndFlushedEntriesOnly() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(10)
            #expect(cache.containsData(for: "a"))
            cache.flush()
            #expect(cache.containsData(for: "a"))
            #expect(!cache.containsData(for: "b"))
            cache.removeData(for: "a")
            #expect(!cache.containsData(for: "a"))
        }

        @Test func noTemporaryFileRemainsAfterFlush() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            for i in 0..<20 { cache["k\(i)"] = Self.bytes(100 * i) }
            cache.flush()
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
            #expect(names.count == 20)
            #expect(!names.contains { $0.hasPrefix(DataCacheFile.temporaryPrefix) })
            #expect(Set(names) == Set((0..<20).map { DataCache.sha256Filename("k\($0)")! }))
        }

        @Test func readerNeverSeesATornFileWhileAnEntryIsRewritten() async throws {
            let dir = try TemporaryDirectory()
            let writer = DataCache(path: dir.url)
            let small = Self.bytes(10_000, seed: 1), large = Self.bytes(300_000, seed: 2)
            writer["k"] = small
            writer.flush()
            // A second instance has no staged data: every read goes to the file.
            let reader = DataCache(path: dir.url)
            async let rewrites: Void = {
                for i in 0..<200 {
                    writer["k"] = i.isMultiple(of: 2) ? large : small
                    writer.flush()
                }
            }()
            var reads = 0, bad = 0
            for _ in 0..<2_000 {
                let data = reader["k"]
                if data != small && data != large { bad += 1 }
                reads += 1
                await Task.yield()
            }
            await rewrites
            #expect(reads == 2_000)
            #expect(bad == 0, "every read returned one complete version")
        }

        @Test func collidingFilenamesNeverReturnAnotherKeysData() throws {
            let dir = try TemporaryDirectory()
            // Same-length keys, so only the key bytes themselves tell the entries apart.
            let cache = DataCache(path: dir.url, filenameGenerator: { _ in "same" })
            cache["key-1"] = Self.bytes(100, seed: 1)
            cache.flush()
            cache["key-2"] = Self.bytes(100, seed: 2)
            cache.flush()
            #expect(cache["key-1"] == nil, "the second write replaced the file; its data belongs to another key")
            #expect(!cache.containsData(for: "key-1"))
            #expect(cache["key-2"] == Self.bytes(100, seed: 2))
            let reopened = DataCache(path: dir.url, filenameGenerator: { _ in "same" })
            #expect(reopened["key-1"] == nil)
            #expect(reopened["key-2"] == Self.bytes(100, seed: 2))
        }

        @Test func removingACollidingKeyKeepsTheOtherKeysFile() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url, filenameGenerator: { _ in "same" })
            cache["key-2"] = Self.bytes(100, seed: 2)
            cache.flush()
            cache.removeData(for: "key-1")
            cache.flush()
            #expect(cache["key-2"] == Self.bytes(100, seed: 2))
        }

        @Test func keyWithoutAFilenameIsNotStored() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url, filenameGenerator: { $0 == "skip" ? nil : ($0 == "bad" ? "a/b" : $0) })
            cache["skip"] = Self.bytes(10)
            cache["bad"] = Self.bytes(10)
            cache["ok"] = Self.bytes(10)
            #expect(cache["skip"] == nil)
            #expect(cache["bad"] == nil)
            cache.flush()
            #expect(cache.totalCount == 1)
        }

        @Test func corruptHeaderReadsAsNilAndTheFileIsDeleted() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(100)
            cache.flush()
            let file = cache.filePath(for: "a")!
            var contents = try Data(contentsOf: URL(fileURLWithPath: file))
            contents[0] = UInt8(ascii: "X")
            try contents.write(to: URL(fileURLWithPath: file))
            #expect(cache["a"] == nil)
            cache.flush()  // the deletion was queued by the read
            #expect(!FileManager.default.fileExists(atPath: file))
        }

        @Test func truncatedFileReadsAsNil() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(100)
            cache.flush()
            let file = cache.filePath(for: "a")!
            let contents = try Data(contentsOf: URL(fileURLWithPath: file))
            try contents.prefix(contents.count - 1).write(to: URL(fileURLWithPath: file))
            #expect(cache["a"] == nil)
            #expect(!cache.containsData(for: "a"))
            cache.flush()
            #expect(!FileManager.default.fileExists(atPath: file))
        }

        @Test func fileTooShortForAHeaderReadsAsNil() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            let file = cache.filePath(for: "a")!
            try Data("CMT1".utf8).write(to: URL(fileURLWithPath: file))
            #expect(cache["a"] == nil)
        }

        @Test func totalSizeAndCountDescribeTheFiles() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache["a"] = Self.bytes(1000)
            cache["bb"] = Self.bytes(500)
            // totalSize and totalCount wait for staged writes.
            #expect(cache.totalCount == 2)
            #expect(cache.totalSize == (16 + 1 + 1000) + (16 + 2 + 500))
        }

        @Test func initWithNameUsesTheUserCachesDirectory() throws {
            let name = "comet-tests-\(UUID().uuidString)"
            let cache = try DataCache(name: name)
            defer { try? FileManager.default.removeItem(at: cache.path) }
            #expect(
                cache.path.standardizedFileURL
                    == DataCache.userCachesDirectory.appendingPathComponent(name).standardizedFileURL)
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: cache.path.path, isDirectory: &isDirectory)
                    && isDirectory.boolValue)
            #expect(cache.sizeLimit == 150 << 20)
            #expect(cache.sweepInterval == 30)
        }

        @Test func initWithInvalidNameThrows() {
            #expect(throws: (any Error).self) { try DataCache(name: "") }
            #expect(throws: (any Error).self) { try DataCache(name: "../escape") }
        }

        @Test func concurrentStoresAndReadsNeverMixKeys() async throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            let mismatches = await withTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var mismatches = 0
                        for i in 0..<300 {
                            let k = (worker * 7 + i) % 40
                            switch i % 5 {
                            case 0, 1: cache["k\(k)"] = Self.bytes(64 + k, seed: UInt8(k))
                            case 2: if i % 50 == 2 { cache.removeData(for: "k\(k)") }
                            default:
                                if let data = cache["k\(k)"], data != Self.bytes(64 + k, seed: UInt8(k)) {
                                    mismatches += 1
                                }
                            }
                        }
                        return mismatches
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(mismatches == 0)
            cache.flush()
            let reopened = DataCache(path: dir.url)
            for k in 0..<40 {
                if let data = reopened["k\(k)"] { #expect(data == Self.bytes(64 + k, seed: UInt8(k))) }
            }
        }

        @Test func storingUnderAnEmptyKeyIsIgnored() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            cache.storeData(Self.bytes(10), for: "")
            cache.flush()
            #expect(cache.cachedData(for: "") == nil)
            #expect(DataCache(path: dir.url).cachedData(for: "") == nil)
        }

        @Test func anEmptyKeyHasNoFilenameOrURL() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            #expect(cache.filename(for: "") == nil)
            #expect(cache.url(for: "") == nil)
        }

        @Test func urlForAKeyIsTheFileItsDataIsFlushedTo() throws {
            let dir = try TemporaryDirectory()
            let cache = DataCache(path: dir.url)
            let url = try #require(cache.url(for: "a"))
            #expect(url.lastPathComponent == cache.filename(for: "a"))
            #expect(url.deletingLastPathComponent().standardizedFileURL.path == dir.url.standardizedFileURL.path)
            #expect(!FileManager.default.fileExists(atPath: url.path))
            cache["a"] = Self.bytes(10)
            cache.flush()
            #expect(FileManager.default.fileExists(atPath: url.path))
        }
    }
}
