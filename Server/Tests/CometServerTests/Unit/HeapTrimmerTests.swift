import CometServer
import Foundation
import Logging
import ServiceLifecycle
import Testing

@Suite("Heap trimmer", .timeLimit(.minutes(1)))
struct HeapTrimmerTests {
    /// Whether glibc's allocator serves this process: ThreadSanitizer and AddressSanitizer put
    /// their own in its place, and theirs has nothing for `malloc_trim` to release.
    static let usesGlibcAllocator =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil
        && dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil

    @Test(.enabled(if: usesGlibcAllocator, "a sanitizer's allocator replaces glibc's"))
    func trimmingAfterFreeingReleasesMemory() {
        // 64 blocks of 64 KiB below glibc's mmap threshold live in a heap; once freed, a trim
        // has free pages to give back.
        let blocks = (0..<64).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 64 << 10, alignment: 16) }
        for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 64 << 10) }
        for block in blocks { block.deallocate() }
        #expect(HeapTrimmer.trim())
    }

    @Test(.enabled(if: usesGlibcAllocator, "a sanitizer's allocator replaces glibc's"))
    func allocationsAboveTheSetThresholdAreMappedOnTheirOwnAndUnmappedWhenFreed() {
        // 1 MiB: above the 64 KiB blocks of the trim test, which runs in the same process.
        #expect(HeapTrimmer.mapAllocations(ofAtLeast: 1 << 20))
        // The mapped total is the process's: other suites, running at the same time, map and
        // unmap their own bitmaps between two readings. One clean try out of five is the
        // behaviour; five disturbed in a row would be a coincidence of another order.
        let mappedThenUnmapped = (0..<5).contains { _ in
            let before = HeapTrimmer.mappedBlockBytes
            let block = UnsafeMutableRawPointer.allocate(byteCount: 3 << 20, alignment: 16)
            let during = HeapTrimmer.mappedBlockBytes
            block.deallocate()
            let after = HeapTrimmer.mappedBlockBytes
            return during >= before + (3 << 20) && after <= during - (3 << 20)
        }
        #expect(mappedThenUnmapped)
    }

    @Test(.enabled(if: usesGlibcAllocator, "a sanitizer's allocator replaces glibc's"))
    func theAllocatorTakesALimitOnItsHeaps() {
        // glibc's own default on this machine's cores: the test process keeps what it had.
        #expect(HeapTrimmer.limitHeaps(to: 8 * ProcessInfo.processInfo.activeProcessorCount))
    }

    @Test func theTrimmerEndsAtTheGroupsGracefulShutdown() async throws {
        let trimmer = HeapTrimmer(interval: .milliseconds(5))
        let group = ServiceGroup(configuration: .init(services: [trimmer], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await Task.sleep(for: .milliseconds(30))
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
