import Foundation
import HanekeCompat
import Testing

/// DiskFetcher and fetch(path:).
@Suite(.timeLimit(.minutes(10)))
struct DiskFetcherTests {
    init() { TestBase.prepare() }

    private func file(_ contents: String, _ label: String = #function) throws -> String {
        let path = TestBase.diskCachePath(label) + ".txt"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileIsReadAndConvertedOnMain() async throws {
        let path = try file("contents")
        let outcome = await fetched(DiskFetcher<String>(path: path))
        #expect(outcome.values == ["contents"])
        #expect(outcome.allOnMain)
    }

    @Test func theReadErrorIsPassedThrough() async {
        let outcome = await fetched(DiskFetcher<Data>(path: "/nonexistent/haneke/file"))
        #expect(outcome.error != nil)
        #expect(outcome.error?.domain != HanekeGlobals.Domain)
    }

    @Test func bytesThatDoNotConvertFailWithMinus500() async throws {
        let path = try file("[1, 2")
        let outcome = await fetched(DiskFetcher<JSON>(path: path))
        #expect(outcome.error?.domain == "io.haneke")
        #expect(outcome.error?.code == HanekeGlobals.DiskFetcher.ErrorCode.invalidData.rawValue)
    }

    // On the main actor: a callback already queued for main when cancelFetch() runs must be dropped.
    @Test @MainActor func aCancelledFetchNeverCallsBack() async throws {
        let path = try file("contents")
        let fetcher = DiskFetcher<String>(path: path)
        let outcome = Outcome<String>()
        fetcher.fetch(failure: outcome.fail, success: outcome.succeed)
        fetcher.cancelFetch()
        #expect(!(await outcome.wait(0.5)))
    }

    @Test func fetchPathCachesTheFileUnderItsPath() async throws {
        let path = try file("cached")
        let cache = Cache<String>(name: TestBase.uniqueName())
        let first = Outcome<String>()
        cache.fetch(path: path, success: first.succeed)
        #expect(await first.wait())
        try FileManager.default.removeItem(atPath: path)
        let second = Outcome<String>()
        cache.fetch(key: path, success: second.succeed)
        #expect(second.values == ["cached"])
    }
}
