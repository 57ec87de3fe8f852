import ServerTestSupport
import CometRedis
import Foundation
import MetricsTestKit
import Synchronization
import Testing

/// Counts how often a `produce` closure ran.
final class ProduceCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

@Suite(
    "RedisResultStore",
    .enabled(if: RedisServerProcess.isAvailable, "needs redis-server (apt-get install redis-server)"),
    .timeLimit(.minutes(10)))
struct RedisResultStoreTests {
    let server: RedisServerProcess

    init() throws {
        server = try RedisServerProcess()
    }

    private func makeStore(
        leaseDuration: Duration = .seconds(10),
        metrics: TestMetrics = TestMetrics()
    ) -> RedisResultStore {
        let client = RedisClient(configuration: RedisConfiguration(port: server.port, commandTimeout: .seconds(1)))
        return RedisResultStore(
            client: client, configuration: .init(leaseDuration: leaseDuration), metricsFactory: metrics)
    }

    private static func randomResult() -> StoredResult {
        StoredResult(
            bytes: (0..<4096).map { _ in UInt8.random(in: 0...255) }, contentType: "image/webp",
            etag: "\"\(UUID().uuidString)\"")
    }

    @Test func aStoredResultIsServedWithoutProducingAgain() async throws {
        let metrics = TestMetrics()
        let store = makeStore(metrics: metrics)
        defer { store.client.close() }
        let made = Self.randomResult()
        let first = try await store.result(for: "thumb", ttl: .seconds(60)) { made }
        let second = try await store.result(for: "thumb", ttl: .seconds(60)) {
            Issue.record("produced although stored")
            return Self.randomResult()
        }
        #expect(first == made && second == made)
        #expect(try metrics.expectCounter("comet_redis_misses_total").totalValue == 1)
        #expect(try metrics.expectCounter("comet_redis_hits_total").totalValue == 1)
    }

    @Test func aResultIsProducedAgainAfterItsTTL() async throws {
        let store = makeStore()
        defer { store.client.close() }
        let produced = ProduceCounter()
        for _ in 0..<2 {
            _ = try await store.result(for: "brief", ttl: .milliseconds(100)) {
                produced.increment()
                return Self.randomResult()
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(produced.value == 2)
    }

    @Test func concurrentRequestsOnTwoInstancesProduceOnceAndGetIdenticalBytes() async throws {
        let instances = [makeStore(), makeStore()]
        defer { instances.forEach { $0.client.close() } }
        let produced = ProduceCounter()
        let results = try await withThrowingTaskGroup(of: StoredResult.self) { group in
            for request in 0..<20 {
                let store = instances[request % 2]
                group.addTask {
                    try await store.result(for: "shared", ttl: .seconds(60)) {
                        produced.increment()
                        try await Task.sleep(for: .milliseconds(200))
                        return Self.randomResult()
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(produced.value == 1)
        #expect(results.count == 20)
        #expect(Set(results.map(\.bytes)).count == 1)
        #expect(Set(results.map(\.etag)).count == 1)
    }

    @Test func aWaiterProducesWhenTheWinnersLeaseExpires() async throws {
        let lease = Duration.milliseconds(300)
        let winner = makeStore(leaseDuration: lease)
        let waiter = makeStore(leaseDuration: lease)
        defer { winner.client.close(); waiter.client.close() }
        let winnerStarted = ProduceCounter()
        let start = ContinuousClock.now
        // The winner's producer hangs (as a dead instance would) until the test cancels it.
        let stuck = Task {
            try await winner.result(for: "orphan", ttl: .seconds(60)) {
                winnerStarted.increment()
                try await Task.sleep(for: .seconds(30))
                return Self.randomResult()
            }
        }
        defer { stuck.cancel() }
        while winnerStarted.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let mine = Self.randomResult()
        let got = try await waiter.result(for: "orphan", ttl: .seconds(60)) { mine }
        #expect(got == mine)
        // Not before the winner's lease ran out.
        #expect(ContinuousClock.now - start >= lease)
    }

    @Test func aWaiterTakesOverAtOnceWhenTheWinnersProducerFails() async throws {
        struct SourceFailed: Error {}
        // A lease far longer than the test could take: a waiter that got the result waited for
        // the failure, not for the lease to expire.
        let winner = makeStore(leaseDuration: .seconds(600))
        let waiter = makeStore(leaseDuration: .seconds(600))
        defer { winner.client.close(); waiter.client.close() }
        let winnerStarted = ProduceCounter()
        let failing = Task {
            try await winner.result(for: "flaky", ttl: .seconds(60)) {
                winnerStarted.increment()
                try await Task.sleep(for: .milliseconds(200))
                throw SourceFailed()
            }
        }
        while winnerStarted.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let start = ContinuousClock.now
        let mine = Self.randomResult()
        let got = try await waiter.result(for: "flaky", ttl: .seconds(60)) { mine }
        #expect(got == mine)
        // Well before the 600 s lease would have expired (generous: a hang guard, not a speed check).
        #expect(ContinuousClock.now - start < .seconds(300))
        await #expect(throws: SourceFailed.self) { try await failing.value }
    }

    @Test func whenRedisDiesMidRunEveryCallStillSucceedsAndFallbacksAreCounted() async throws {
        let metrics = TestMetrics()
        let store = makeStore(metrics: metrics)
        defer { store.client.close() }
        for index in 0..<5 {
            _ = try await store.result(for: "before-\(index)", ttl: .seconds(60)) { Self.randomResult() }
        }
        server.kill()
        for index in 0..<10 {
            let mine = Self.randomResult()
            let got = try await store.result(for: "after-\(index)", ttl: .seconds(60)) { mine }
            #expect(got == mine)
        }
        #expect(try metrics.expectCounter("comet_redis_fallbacks_total").totalValue == 10)
    }

    @Test func aRedisThatStallsIsSkippedWithinTheCommandTimeout() async throws {
        let slow = try RedisServerProcess(extraArguments: ["--enable-debug-command", "yes"])
        let admin = RedisClient(configuration: RedisConfiguration(port: slow.port, commandTimeout: .seconds(60)))
        let metrics = TestMetrics()
        let client = RedisClient(configuration: RedisConfiguration(port: slow.port, commandTimeout: .milliseconds(100)))
        defer { admin.close(); client.close() }
        let store = RedisResultStore(client: client, metricsFactory: metrics)
        _ = try await store.result(for: "warm-up", ttl: .seconds(60)) { Self.randomResult() }
        // Redis stops answering everyone for 10 s (it runs commands one at a time).
        let stallEnded = ProduceCounter()
        let stall = Task {
            defer { stallEnded.increment() }
            return try await admin.command("DEBUG", "SLEEP", "10")
        }
        // Time for the stall to reach Redis; it then holds for 9.5 s more.
        try await Task.sleep(for: .milliseconds(500))
        let mine = Self.randomResult()
        #expect(try await store.result(for: "during-stall", ttl: .seconds(60)) { mine } == mine)
        // The call did not wait for Redis: it was served while the stall still held.
        #expect(stallEnded.value == 0)
        #expect(try metrics.expectCounter("comet_redis_fallbacks_total").totalValue == 1)
        _ = try await stall.value
    }

    @Test func aStoreWithoutRedisServesEveryCallFromProduce() async throws {
        let metrics = TestMetrics()
        let client = RedisClient(configuration: RedisConfiguration(port: LoopbackSocket.freePort()))
        defer { client.close() }
        let store = RedisResultStore(client: client, metricsFactory: metrics)
        for index in 0..<100 {
            let mine = Self.randomResult()
            #expect(try await store.result(for: "k\(index)", ttl: .seconds(60)) { mine } == mine)
        }
        #expect(try metrics.expectCounter("comet_redis_fallbacks_total").totalValue == 100)
    }
}
