import Comet
import CometTestSupport
import Foundation
import HanekeCompat
import Testing

/// Memory pressure empties the memory levels of a Haneke cache, never its disk levels.
@Suite(.timeLimit(.minutes(10)))
struct CachePressureTests {
    init() { TestBase.prepare() }

    @Test @MainActor func criticalPressureLeavesOnlyTheDiskLevel() async throws {
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.set(value: "value", key: "key")
        let memoryHit = Outcome<String>()
        cache.fetch(key: "key", success: memoryHit.succeed)
        #expect(memoryHit.callbackCount == 1)  // synchronous: a memory hit
        let file = ReadingFile()
        try file.write(ReadingFile.stall(some: 60, full: 30))
        let monitor = MemoryPressureMonitor(sources: [.pressureStall(file.url)])
        monitor.register(cache)
        #expect(monitor.poll() == .critical)
        let diskHit = Outcome<String>()
        cache.fetch(key: "key", success: diskHit.succeed)
        #expect(diskHit.callbackCount == 0)  // not in memory any more
        #expect(await diskHit.wait())
        #expect(diskHit.value == "value")
    }
}
