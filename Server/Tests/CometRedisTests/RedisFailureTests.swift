import ServerTestSupport
import CometRedis
import Foundation
import Glibc
import Testing

@Suite("RedisClient when Redis is slow, absent or dies", .timeLimit(.minutes(10)))
struct RedisFailureTests {
    @Test func aServerThatNeverAnswersTimesOutTheCommand() async throws {
        let listener = LoopbackSocket.silentListener()
        defer { close(listener.descriptor) }
        let client = RedisClient(
            configuration: RedisConfiguration(port: listener.port, commandTimeout: .milliseconds(100)))
        defer { client.close() }
        let start = ContinuousClock.now
        // The read times out (the suite's time limit would catch a wait without end).
        let error = await #expect(throws: RedisError.self) { try await client.get("key") }
        if case .io = error {} else { Issue.record("expected an I/O timeout, got \(String(describing: error))") }
        #expect(ContinuousClock.now - start >= .milliseconds(90))
    }

    @Test func afterATimeoutCallsFailAtOnceWithoutTouchingRedis() async throws {
        let listener = LoopbackSocket.silentListener()
        defer { close(listener.descriptor) }
        let client = RedisClient(
            configuration: RedisConfiguration(
                port: listener.port, commandTimeout: .milliseconds(100), initialBackoff: .seconds(30)))
        defer { client.close() }
        _ = try? await client.get("key")
        // `unavailable` is the circuit breaker's answer, given without a connection attempt.
        for _ in 0..<100 {
            await #expect(throws: RedisError.unavailable) { try await client.get("key") }
        }
    }

    @Test func aRefusedConnectionFailsAsConnectionFailed() async throws {
        let client = RedisClient(configuration: RedisConfiguration(port: LoopbackSocket.freePort()))
        defer { client.close() }
        await #expect {
            try await client.get("key")
        } throws: { error in
            if case RedisError.connectionFailed = error { return true }
            return false
        }
    }

    @Test(.enabled(if: RedisServerProcess.isAvailable, "needs redis-server"))
    func theClientReconnectsWhenRedisComesBack() async throws {
        let server = try RedisServerProcess()
        let client = RedisClient(
            configuration: RedisConfiguration(
                port: server.port, initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(100)))
        defer { client.close() }
        try await client.set("before", [1])
        server.kill()
        await #expect(throws: RedisError.self) { try await client.get("before") }
        try server.start()
        // Within a few backoffs the client probes, reconnects and closes the circuit.
        let deadline = ContinuousClock.now + .seconds(5)
        var reconnected = false
        while !reconnected && ContinuousClock.now < deadline {
            reconnected = (try? await client.set("after", [2])) == true
            if !reconnected { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(reconnected)
        #expect(try await client.get("after") == [2])
    }

    @Test func aFullQueueFailsAtOnceAsOverloaded() async throws {
        let listener = LoopbackSocket.silentListener()
        defer { close(listener.descriptor) }
        // One connection, no queue: of two commands sent together to a server that never
        // answers, one holds the connection until it times out; the other finds no room.
        let client = RedisClient(
            configuration: RedisConfiguration(
                port: listener.port, commandTimeout: .seconds(2), poolSize: 1, maxQueuedCommands: 0))
        defer { client.close() }
        async let first = Self.outcome { try await client.get("one") }
        async let second = Self.outcome { try await client.get("two") }
        let outcomes = await [first, second]
        #expect(outcomes.filter { $0 == RedisError.overloaded }.count == 1, "\(outcomes)")
    }

    /// The error a call threw (`nil` if it returned).
    private static func outcome(_ call: () async throws -> [UInt8]?) async -> RedisError? {
        do {
            _ = try await call()
            return nil
        } catch let error as RedisError {
            return error
        } catch {
            return .unexpectedReply("\(error)")
        }
    }
}
