import CometServer
import Foundation
import Testing

/// The built `comet-server` executable, as an operator runs it.
@Suite("comet-server process", .timeLimit(.minutes(10)))
struct GracefulShutdownTests {
    let client = HTTPClient()

    @Test func sigtermStopsAcceptingLetsTheSlowRequestFinishThenExitsZero() async throws {
        let origin = try await OriginServer.start()
        defer { Task { await origin.stop() } }
        let server = try await ServerProcess.start([
            "--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning",
        ])
        let slow = Task { try await client.get(server.url("rs:fit:32:32/f:png", origin.url("/slow/1500/photo.jpg"))) }
        while origin.requests("/slow/1500/photo.jpg") == 0 { try await Task.sleep(for: .milliseconds(10)) }

        server.terminate()
        // It stops accepting at once, while the slow request (1.5 s at the origin) goes on.
        try await Task.sleep(for: .milliseconds(200))
        await #expect(throws: (any Error).self) {
            try await HTTPClient(timeout: 2).get(URL(string: server.base + "/health")!)
        }
        #expect(!slow.isCancelled)
        let answer = try await slow.value
        #expect(answer.status == 200)
        #expect(Magic.isPNG(answer.body))
        let process = server.process
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
