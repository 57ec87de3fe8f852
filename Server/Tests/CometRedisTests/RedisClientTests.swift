import ServerTestSupport
import CometRedis
import Foundation
import Testing

@Suite(
    "RedisClient against a real redis-server",
    .enabled(if: RedisServerProcess.isAvailable, "needs redis-server (apt-get install redis-server)"),
    .timeLimit(.minutes(10)))
final class RedisClientTests {
    let server: RedisServerProcess
    let client: RedisClient

    init() throws {
        server = try RedisServerProcess()
        client = RedisClient(configuration: RedisConfiguration(port: server.port, commandTimeout: .seconds(2)))
    }

    deinit {
        client.close()
    }

    @Test func aValueSetIsReadBack() async throws {
        try await client.set("greeting", Array("hello".utf8))
        #expect(try await client.get("greeting") == Array("hello".utf8))
    }

    @Test func aMissingKeyReadsAsNil() async throws {
        #expect(try await client.get("never-set") == nil)
    }

    @Test func valuesAreBinarySafe() async throws {
        let bytes: [UInt8] = (0...255).map(UInt8.init) + [0, 0, 13, 10, 0]
        try await client.set("binary", bytes)
        try await client.set("empty", [])
        #expect(try await client.get("binary") == bytes)
        #expect(try await client.get("empty") == [])
    }

    @Test func aKeySetWithAnExpiryIsGoneAfterIt() async throws {
        try await client.set("short-lived", [1, 2, 3], expiry: .seconds(3))
        let left = try #require(try await client.timeToLive("short-lived"))
        #expect(left > .zero && left <= .seconds(3))
        try await Task.sleep(for: left + .milliseconds(300))
        #expect(try await client.get("short-lived") == nil)
    }

    @Test func setOnlyIfAbsentLeavesAnExistingKeyAlone() async throws {
        #expect(try await client.set("lease", Array("first".utf8), onlyIfAbsent: true))
        #expect(try await client.set("lease", Array("second".utf8), onlyIfAbsent: true) == false)
        #expect(try await client.get("lease") == Array("first".utf8))
    }

    @Test func multiGetReturnsEachKeyInOrder() async throws {
        try await client.set("a", [1])
        try await client.set("c", [3])
        #expect(try await client.get(["a", "b", "c"]) == [[1], nil, [3]])
    }

    @Test func anErrorReplyIsAReplyNotAFailure() async throws {
        try await client.set("text", Array("not a number".utf8))
        let reply = try await client.command("INCR", "text")
        guard case .error(let message) = reply else {
            Issue.record("expected an error reply, got \(reply)")
            return
        }
        #expect(message.contains("not an integer"))
        // The connection is still good afterwards.
        #expect(try await client.command("PING") == .status("PONG"))
    }
}
