import CometServer
import Foundation
import ServerTestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A client that disconnects cancels the work made for it (the source's fetch included),
/// unless another request waits for the same result. The origin is a raw socket that accepts
/// the service's fetch and answers only when told, so the test sees the fetch's connection.
@Suite("Client disconnects", .timeLimit(.minutes(10)))
struct DisconnectTests {
    let client = HTTPClient()

    /// Starts a server that may fetch from loopback, with `store`, and a silent origin.
    func start(_ store: LocalResultStore) async throws -> (RunningServer, origin: (descriptor: Int32, port: Int)) {
        var configuration = RunningServer.configuration()
        configuration.sourcePolicy = SourcePolicy(allowsPrivateNetworks: true)
        return (try await RunningServer.start(configuration, store: store), LoopbackSocket.silentListener())
    }

    /// Accepts the service's fetch on the origin (off the cooperative threads).
    static func acceptFetch(_ listener: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: LoopbackSocket.accept(on: listener, within: 10))
            }
        }
    }

    /// A client that sends the request for `url` on a raw connection (to hang up on it later).
    static func rawRequest(_ url: URL) -> Int32 {
        let fd = LoopbackSocket.connected(port: url.port!)
        LoopbackSocket.send("GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", on: fd)
        return fd
    }

    @Test func aClientThatHangsUpCancelsTheFetch() async throws {
        let store = LocalResultStore()
        let (server, origin) = try await start(store)
        defer { close(origin.descriptor) }
        let url = server.url("rs:fit:32:32", URL(string: "http://127.0.0.1:\(origin.port)/slow.jpg")!)
        let client = Self.rawRequest(url)
        let fetch = await Self.acceptFetch(origin.descriptor)
        try #require(fetch >= 0, "the service fetched the source")
        defer { close(fetch) }
        #expect(LoopbackSocket.receive(on: fetch, within: 5).hasPrefix("GET /slow.jpg"))
        close(client)
        let started = ContinuousClock.now
        #expect(await eventually { LoopbackSocket.isClosedByPeer(fetch) }, "the fetch was cancelled")
        print("disconnect: the source's connection closed \(ContinuousClock.now - started) after the client hung up")
        #expect(await eventually { store.flightCount == 0 }, "no work is left for the request")
        await server.stop()
    }

    @Test func aClientThatHangsUpLeavesTheWorkToAnotherWaitingForTheSameResult() async throws {
        let store = LocalResultStore()
        let (server, origin) = try await start(store)
        defer { close(origin.descriptor) }
        let url = server.url("rs:fit:32:32", URL(string: "http://127.0.0.1:\(origin.port)/shared.jpg")!)
        let leaving = Self.rawRequest(url)
        let fetch = await Self.acceptFetch(origin.descriptor)
        try #require(fetch >= 0)
        defer { close(fetch) }
        _ = LoopbackSocket.receive(on: fetch, within: 5)
        let staying = Task { try await client.get(url) }
        #expect(await eventually { store.waitingCount == 2 }, "the second request joined the first")
        close(leaving)
        try await Task.sleep(for: .milliseconds(300))
        #expect(!LoopbackSocket.isClosedByPeer(fetch), "the fetch goes on for the request still waiting")
        let body = OriginServer.photo
        LoopbackSocket.send(
            "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n",
            on: fetch)
        LoopbackSocket.send(bytes: body, on: fetch)
        let answer = try await staying.value
        #expect(answer.status == 200)
        await server.stop()
    }
}
