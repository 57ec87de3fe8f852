import CometServer
import Foundation
import Logging
import ServiceLifecycle
import Testing

@Suite("Heap trimmer", .timeLimit(.minutes(10)))
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
        // The block itself is looked up in /proc/self/maps (the process's mapped total moves
        // with every other suite's allocations): mapped while it lives (the kernel may merge its
        // mapping with a neighbour), its address unmapped once freed, which a block inside a heap
        // never is. A retry covers another thread mapping something at that address meanwhile.
        let mappedThenUnmapped = (0..<5).contains { _ in
            // glibc maps a block of its own only when no heap can serve it from free memory, and
            // after the earlier suites of this process a heap may hold a few free MiB: 96 MiB is
            // more than a thread's heap can be (64 MiB) and than the main heap keeps free. Its
            // pages are never touched, so it costs no memory.
            HeapTrimmer.trim()
            let block = UnsafeMutableRawPointer.allocate(byteCount: 96 << 20, alignment: 16)
            let mapping = Self.mapping(containing: block)
            block.deallocate()
            guard let mapping, mapping.count >= 96 << 20 else { return false }
            return Self.mapping(containing: block) == nil
        }
        #expect(mappedThenUnmapped)
    }

    /// The address range of the mapping that contains `address`, from /proc/self/maps.
    static func mapping(containing address: UnsafeMutableRawPointer) -> Range<UInt>? {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
        let target = UInt(bitPattern: address)
        for line in maps.split(separator: "\n") {
            let bounds = line.prefix { $0 != " " }.split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16)
            else { continue }
            if start <= target && target < end { return start..<end }
        }
        return nil
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
