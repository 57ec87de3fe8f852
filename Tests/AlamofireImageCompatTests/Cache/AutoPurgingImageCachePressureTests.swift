import AlamofireImageCompat
import Comet
import CometTestSupport
import Foundation
import Testing

/// The shim's cache answers Linux memory pressure as AlamofireImage answered a memory warning.
@Suite("AutoPurgingImageCache under memory pressure")
struct AutoPurgingImageCachePressureTests {
    @Test func criticalPressureEmptiesTheCacheAndAWarningHalvesIt() throws {
        let file = ReadingFile()
        let monitor = MemoryPressureMonitor(sources: [.pressureStall(file.url)])
        let cache = AutoPurgingImageCache()
        monitor.register(cache)
        for index in 0..<4 { cache.addImage(TestImages.image(width: 16, height: 16), withIdentifier: "\(index)") }
        let full = cache.memoryUsage
        try file.write(ReadingFile.stall(some: 20, full: 0))
        #expect(monitor.poll() == .warning)
        #expect(cache.memoryUsage == full / 2)
        try file.write(ReadingFile.stall(some: 50, full: 20))
        #expect(monitor.poll() == .critical)
        #expect(cache.memoryUsage == 0)
    }
}
