import CometServer
import Locking
import Testing

@Suite("The in-process result store")
struct LocalResultStoreTests {
    /// A thread-safe count of calls.
    final class Tally: Sendable {
        private let value = Locked(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test func concurrentCallsForOneKeyProduceOnce() async throws {
        let store = LocalResultStore()
        let produced = Tally()
        let results = try await withThrowingTaskGroup(of: StoredResult.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.result(for: "k", ttl: .seconds(60)) {
                        produced.add()
                        try await Task.sleep(for: .milliseconds(100))
                        return result(7)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(produced.count == 1)
        #expect(results.allSatisfy { $0 == result(7) })
    }

    @Test func aStoredResultIsAtHandWithoutWaiting() async throws {
        let store = LocalResultStore()
        #expect(store.storedResult(for: "k") == nil)
        // A long lifetime: a loaded machine may take seconds to come back from the store.
        _ = try await store.result(for: "k", ttl: .seconds(600)) { result(3) }
        #expect(store.storedResult(for: "k") == result(3))
    }

    @Test func anExpiredResultIsNoLongerAtHand() async throws {
        let store = LocalResultStore()
        _ = try await store.result(for: "k", ttl: .milliseconds(50)) { result(3) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(store.storedResult(for: "k") == nil)
    }

    @Test func anExpiredResultIsMadeAgain() async throws {
        let store = LocalResultStore()
        _ = try await store.result(for: "k", ttl: .milliseconds(20)) { result(1) }
        try await Task.sleep(for: .milliseconds(60))
        let second = try await store.result(for: "k", ttl: .seconds(60)) { result(2) }
        #expect(second == result(2))
    }

    @Test func failuresAreNotStored() async throws {
        let store = LocalResultStore()
        await #expect(throws: ServiceError.self) {
            try await store.result(for: "k", ttl: .seconds(60)) { throw ServiceError.notFound("x") }
        }
        #expect(try await store.result(for: "k", ttl: .seconds(60)) { result(3) } == result(3))
    }

    @Test func aCancelledCallerStopsWaitingButTheMakingGoesOnForAnother() async throws {
        let store = LocalResultStore()
        let produced = Tally(), finished = Tally()
        let make: @Sendable () async throws -> StoredResult = {
            produced.add()
            try await Task.sleep(for: .milliseconds(300))
            finished.add()
            return result(5)
        }
        let leaving = Task { try await store.result(for: "k", ttl: .seconds(60), produce: make) }
        let staying = Task { try await store.result(for: "k", ttl: .seconds(60), produce: make) }
        try await Task.sleep(for: .milliseconds(50))
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(try await staying.value == result(5))
        #expect(produced.count == 1 && finished.count == 1)
    }

    @Test func theMakingIsCancelledWhenItsLastCallerIs() async throws {
        let store = LocalResultStore()
        let cancelled = Tally()
        let callers = (0..<3).map { _ in
            Task {
                try await store.result(for: "k", ttl: .seconds(60)) {
                    do {
                        try await Task.sleep(for: .seconds(10))
                    } catch {
                        cancelled.add()
                        throw error
                    }
                    return result(1)
                }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        let deadline = ContinuousClock.now + .seconds(5)
        while cancelled.count == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(cancelled.count == 1, "the making saw the cancellation")
        #expect(store.flightCount == 0)
        #expect(
            try await store.result(for: "k", ttl: .seconds(60)) { result(2) } == result(2),
            "the next caller starts afresh")
    }

    @Test func evictsLeastRecentlyUsedPastItsCostLimit() async throws {
        let one = LocalResultStore.cost(of: result(0), key: "a")
        let store = LocalResultStore(costLimit: 4 * one)
        for key in ["a", "b", "c", "d", "e"] { _ = try await store.result(for: key, ttl: .seconds(60)) { result(0) } }
        #expect(store.count >= 3 && store.count <= 4)
        let remade = Tally()
        _ = try await store.result(for: "a", ttl: .seconds(60)) {
            remade.add(); return result(0)
        }
        #expect(remade.count == 1, "the least recently used went first")
    }

    @Test func anEntryCostsWhatItHoldsNotOnlyItsBytes() {
        var spacious = [UInt8]()
        spacious.reserveCapacity(10_000)
        spacious.append(1)
        let held = StoredResult(bytes: spacious, contentType: "image/png", etag: "\"1\"")
        #expect(LocalResultStore.cost(of: held, key: "k") >= 10_000, "the buffer as allocated")
        #expect(
            LocalResultStore.cost(of: result(1), key: "a-long-key") > LocalResultStore.cost(of: result(1), key: "k"))
    }
}

private func result(_ byte: UInt8) -> StoredResult {
    StoredResult(bytes: [byte], contentType: "image/png", etag: "\"\(byte)\"")
}
