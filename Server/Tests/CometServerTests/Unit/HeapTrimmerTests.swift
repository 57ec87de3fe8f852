import CometServer
import Logging
import ServiceLifecycle
import Testing

@Suite("Heap trimmer", .timeLimit(.minutes(1)))
struct HeapTrimmerTests {
    @Test func trimmingAfterFreeingReleasesMemory() {
        // 64 blocks of 64 KiB below glibc's mmap threshold live in a heap; once freed, a trim
        // has free pages to give back.
        let blocks = (0..<64).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 64 << 10, alignment: 16) }
        for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 64 << 10) }
        for block in blocks { block.deallocate() }
        #expect(HeapTrimmer.trim())
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
