import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// The monitor fed readings from test files in place of /proc and /sys.
@Suite("Memory pressure monitor")
struct MemoryPressureMonitorTests {
    static func stall(some: Double, full: Double) -> String { ReadingFile.stall(some: some, full: full) }

    static func events(high: Int = 0, max: Int = 0, oom: Int = 0) -> String {
        "low 0\nhigh \(high)\nmax \(max)\noom \(oom)\noom_kill 0\n"
    }

    private func filledCache(_ count: Int = 4) -> ImageCache {
        let cache = ImageCache(costLimit: 1 << 30)
        for index in 0..<count {
            cache[ImageCacheKey("\(index)")] = CachedImage(image: TestImages.image(width: 32, height: 32))
        }
        return cache
    }

    /// A stall reading (`some`, `full` avg10) and what it does to a cache of 4 equal images.
    struct StallCase: Sendable, CustomTestStringConvertible {
        let some: Double
        let full: Double
        let level: MemoryPressureMonitor.Level
        let remaining: Int
        var testDescription: String { "some \(some) full \(full) → \(level), \(remaining) left" }
    }

    @Test(arguments: [
        StallCase(some: 2.5, full: 0, level: .normal, remaining: 4),  // low pressure trims nothing
        StallCase(some: 15, full: 0, level: .warning, remaining: 2),  // a warning halves the cache
        StallCase(some: 30, full: 12, level: .critical, remaining: 0),  // a full stall empties it
        StallCase(some: 45, full: 0, level: .critical, remaining: 0),  // so does a high `some`
    ])
    func aStallReadingTrimsByItsLevel(_ reading: StallCase) throws {
        let file = ReadingFile()
        try file.write(Self.stall(some: reading.some, full: reading.full))
        let monitor = MemoryPressureMonitor(sources: [.pressureStall(file.url)])
        let cache = filledCache()
        monitor.register(cache)
        #expect(monitor.poll() == reading.level)
        #expect(cache.totalCount == reading.remaining)
    }

    @Test func memoryEventsCountOnlyRisesSinceTheFirstReading() throws {
        let file = ReadingFile()
        try file.write(Self.events(high: 5, max: 2))
        let monitor = MemoryPressureMonitor(sources: [.memoryEvents(file.url)])
        let cache = filledCache()
        monitor.register(cache)
        #expect(monitor.poll() == .normal)  // the baseline
        try file.write(Self.events(high: 6, max: 2))
        #expect(monitor.poll() == .warning)
        #expect(cache.totalCount == 2)
        try file.write(Self.events(high: 6, max: 3))
        #expect(monitor.poll() == .critical)
        #expect(cache.totalCount == 0)
    }

    @Test func missingFilesAreANoOp() {
        let monitor = MemoryPressureMonitor(sources: [
            .pressureStall(URL(fileURLWithPath: "/nonexistent/memory.pressure"))
        ])
        let cache = filledCache()
        monitor.register(cache)
        #expect(monitor.poll() == .normal)
        #expect(cache.totalCount == 4)
        #expect(MemoryPressureMonitor(sources: []).poll() == .normal)
    }

    @Test func aReleasedCacheIsNotKeptAlive() throws {
        let file = ReadingFile()
        try file.write(Self.stall(some: 50, full: 50))
        let monitor = MemoryPressureMonitor(sources: [.pressureStall(file.url)])
        weak var released: ImageCache?
        do {
            let cache = filledCache()
            monitor.register(cache)
            released = cache
        }
        #expect(released == nil)
        #expect(monitor.poll() == .critical)
    }

    @Test func aPipelinesMemoryCacheIsTrimmedAndTheNextLoadDownloadsAgain() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let file = ReadingFile()
        try file.write(Self.stall(some: 0, full: 0))
        let monitor = MemoryPressureMonitor(sources: [.pressureStall(file.url)])
        let (pipeline, _) = makeRealPipeline()
        monitor.register(try #require(pipeline.configuration.imageCache as? ImageCache))
        _ = try await pipeline.image(for: server.imageURL("a.png"))
        _ = try await pipeline.image(for: server.imageURL("a.png"))
        #expect(server.requestCount(for: "/images/a.png") == 1)
        try file.write(Self.stall(some: 60, full: 30))
        monitor.poll()
        _ = try await pipeline.image(for: server.imageURL("a.png"))
        #expect(server.requestCount(for: "/images/a.png") == 2)
    }

    @Test func trimToCostThroughThePipeline() async throws {
        let cache = filledCache()
        let pipeline = ImagePipeline { $0.imageCache = cache }
        let one = cache.totalCost / 4
        pipeline.cache.trim(toCost: one)
        #expect(cache.totalCount == 1)
    }

    @Test func startingWithoutSourcesDoesNothing() {
        let monitor = MemoryPressureMonitor(sources: [])
        monitor.start(interval: .milliseconds(10))
        monitor.stop()
        #expect(monitor.poll() == .normal)
    }
}
