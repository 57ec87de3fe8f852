import class Comet.MemoryPressureMonitor
import CometTestSupport
import Foundation
import NukeCompat
import Testing

/// Memory pressure on Linux does what a memory warning did to Nuke 4's cache.
@Suite("Cache under memory pressure")
struct CachePressureTests {
    @Test func aWarningHalvesTheCacheAndCriticalPressureEmptiesIt() throws {
        let cache = Cache(costLimit: 100, countLimit: 100)
        cache.cost = { _ in 1 }
        for key in ["a", "b", "c", "d"] { cache[key] = TestImages.image(width: 2, height: 2) }
        let file = ReadingFile()
        let monitor = MemoryPressureMonitor(sources: [.pressureStall(file.url)])
        monitor.register(cache)
        try file.write(ReadingFile.stall(some: 20, full: 0))
        #expect(monitor.poll() == .warning)
        #expect(cache.totalCount == 2)
        try file.write(ReadingFile.stall(some: 20, full: 20))
        #expect(monitor.poll() == .critical)
        #expect(cache.totalCount == 0)
    }
}
