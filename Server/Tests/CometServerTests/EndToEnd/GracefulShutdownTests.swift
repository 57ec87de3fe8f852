import CometServer
import Foundation
import Testing

/// The built `comet-server` executable, as an operator runs it.
@Suite("comet-server process", .timeLimit(.minutes(1)))
struct GracefulShutdownTests {
    let client = HTTPClient()

    @Test func sigtermStopsAcceptingLetsTheSlowRequestFinishThenExitsZero() async throws {
        let origin = try await OriginServer.start()
        defer { Task { await origin.stop() } }
        let process = Process()
        process.executableURL = Self.executableURL
        process.arguments = ["--port", "0", "--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { continuation.finish() } else { continuation.yield(String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let line = try await firstValue(of: lines, within: .seconds(20))
        let base = try #require(line.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/)).output
        let url = URL(string: String(base) + ThumbnailPath.make(options: "rs:fit:32:32,f:png",
                                                                 source: origin.url("/slow/1500/photo.jpg"), signer: nil))!
        let slow = Task { try await client.get(url) }
        while origin.requests("/slow/1500/photo.jpg") == 0 { try await Task.sleep(for: .milliseconds(10)) }

        kill(process.processIdentifier, SIGTERM)
        // It stops accepting at once, while the slow request (1.5 s at the origin) goes on.
        try await Task.sleep(for: .milliseconds(200))
        await #expect(throws: (any Error).self) { try await HTTPClient(timeout: 2).get(URL(string: String(base) + "/health")!) }
        #expect(!slow.isCancelled)
        let answer = try await slow.value
        #expect(answer.status == 200)
        #expect(Magic.isPNG(answer.body))
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// The executable, built beside the test bundle (the test target depends on it).
    static let executableURL: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("comet-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("comet-server")
    }()
}
