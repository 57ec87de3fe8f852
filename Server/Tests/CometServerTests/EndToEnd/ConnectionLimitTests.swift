import CometServer
import Foundation
import Locking
import ServerTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Slow and half-sent requests against a real server: they are closed after the header-read
/// timeout (or sooner, at the connection limit), and normal requests are served throughout.
@Suite("Connection limits", .timeLimit(.minutes(10)))
struct ConnectionLimitTests {
    let client = HTTPClient()

    /// Opens `count` connections that each send half a request head; returns their descriptors.
    static func halfSentRequests(_ count: Int, port: Int) async -> [Int32] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var descriptors: [Int32] = []
                for _ in 0..<count {
                    let fd = LoopbackSocket.connected(port: port)
                    guard fd >= 0 else { continue }
                    LoopbackSocket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", on: fd)
                    descriptors.append(fd)
                }
                continuation.resume(returning: descriptors)
            }
        }
    }

    @Test func threeThousandHalfSentRequestsAreClosedWhileNormalRequestsAreServed() async throws {
        var configuration = RunningServer.configuration()
        configuration.connectionLimits = ConnectionLimits(
            headerReadTimeout: .seconds(2), idleTimeout: .seconds(30), maximumConnections: 1000)
        let server = try await RunningServer.start(configuration)
        let port = URL(string: server.base)!.port!
        let started = ContinuousClock.now
        let attack = Locked<([Int32], ContinuousClock.Instant)?>(nil)
        let attackers = Task {
            let descriptors = await Self.halfSentRequests(3000, port: port)
            attack.withLock { $0 = (descriptors, ContinuousClock.now) }
        }
        // Normal requests every 50 ms from the start of the attack until every half-sent request
        // is closed (at most 20 s).
        var statuses: [Int] = [], slowest = Duration.zero
        var closedAt: ContinuousClock.Instant?
        while closedAt == nil, ContinuousClock.now - started < .seconds(20) {
            let sent = ContinuousClock.now
            statuses.append(try await client.get(URL(string: server.base + "/health")!).status)
            slowest = max(slowest, ContinuousClock.now - sent)
            try await Task.sleep(for: .milliseconds(50))
            if let (descriptors, _) = attack.withLock({ $0 }), descriptors.allSatisfy(LoopbackSocket.isClosedByPeer) {
                closedAt = ContinuousClock.now
            }
        }
        await attackers.value
        let (descriptors, connectedAt) = try #require(attack.withLock { $0 })
        descriptors.forEach { _ = close($0) }
        #expect(descriptors.count == 3000, "every half-sent request connected")
        let closed = try #require(closedAt, "every half-sent request was closed")
        print(
            "slowloris: 3000 half-sent requests (limit 1000, header timeout 2 s) connected in \(connectedAt - started), "
                + "all closed \(closed - connectedAt) after the last one connected; \(statuses.count) normal requests meanwhile, "
                + "statuses \(Set(statuses))/ slowest \(slowest)")
        #expect(closed - connectedAt < .seconds(3), "the last ones are closed at the header timeout")
        #expect(statuses.allSatisfy { $0 == 200 } && statuses.count >= 20)
        #expect(
            await eventually { server.server.openConnectionCount <= 32 },
            "only the client's own connections stay")
        await server.stop()
    }

    @Test func aKeptAliveConnectionOutlivesTheHeaderTimeoutBetweenRequests() async throws {
        var configuration = RunningServer.configuration()
        configuration.connectionLimits = ConnectionLimits(
            headerReadTimeout: .seconds(1), idleTimeout: .seconds(30), maximumConnections: 100)
        let server = try await RunningServer.start(configuration)
        let fd = LoopbackSocket.connected(port: URL(string: server.base)!.port!)
        defer { close(fd) }
        let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        #expect(LoopbackSocket.send(request, on: fd))
        try await Task.sleep(for: .milliseconds(1500))
        #expect(!LoopbackSocket.isClosedByPeer(fd))
        #expect(LoopbackSocket.send(request, on: fd))
        try await Task.sleep(for: .milliseconds(300))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let received = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        let text = received > 0 ? String(decoding: buffer[..<received], as: UTF8.self) : ""
        #expect(text.components(separatedBy: "HTTP/1.1 200").count - 1 == 2, "both requests answered")
        await server.stop()
    }
}
