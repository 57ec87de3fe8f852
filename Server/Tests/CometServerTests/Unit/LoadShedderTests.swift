import CometServer
import Testing

@Suite("Load shedding")
struct LoadShedderTests {
    @Test func refusesPastTheQueueAndRunsTheRest() async throws {
        let shedder = LoadShedder(maximumConcurrent: 1, maximumQueued: 1, retryAfter: 3)
        let gate = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await shedder.run {
                for await _ in gate.stream { break }; return 1
            }
        }
        while shedder.load.active < 1 { await Task.yield() }
        let second = Task { try await shedder.run { 2 } }
        while shedder.load.queued < 1 { await Task.yield() }
        await #expect(throws: ServiceError.overloaded(retryAfter: 3)) { try await shedder.run { 3 } }
        gate.continuation.yield()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        #expect(shedder.load == (0, 0))
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let shedder = LoadShedder(maximumConcurrent: 1, maximumQueued: 1)
        let gate = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await shedder.run {
                for await _ in gate.stream { break }; return 1
            }
        }
        while shedder.load.active < 1 { await Task.yield() }
        let waiter = Task { try await shedder.run { 2 } }
        while shedder.load.queued < 1 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(shedder.load.queued == 0)
        gate.continuation.yield()
        #expect(try await first.value == 1)
    }
}
