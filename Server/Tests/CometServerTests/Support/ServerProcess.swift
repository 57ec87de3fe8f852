import CometServer
import Foundation
import Glibc

/// The built `comet-server` executable run as an operator runs it, on a free port: started with
/// `arguments` (after `--port 0`), ready once it printed the URL it listens on.
final class ServerProcess: Sendable {
    /// `http://127.0.0.1:PORT`
    let base: String
    // Process is thread-safe for what is used here (pid, state, terminate).
    nonisolated(unsafe) let process: Process

    private init(process: Process, base: String) {
        self.process = process
        self.base = base
    }

    /// Starts the server (with `environment` added to the test's own) and waits (≤ 20 s) for
    /// its "listening on" line.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = ["--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { continuation.finish() } else { continuation.yield(String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
        do {
            let line = try await firstValue(of: lines, within: .seconds(20))
            guard let base = line.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+/)?.output else {
                throw NoListeningLine(line: line)
            }
            return ServerProcess(process: process, base: String(base))
        } catch {
            process.terminate()
            throw error
        }
    }

    /// A service URL for `options` and `source`, unsigned (the tests run it with `--insecure-unsigned`).
    func url(_ options: String, _ source: URL) -> URL {
        URL(string: base + ThumbnailPath.make(options: options, source: source, signer: nil))!
    }

    /// Sends SIGTERM.
    func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The first line comet-server printed was not the one naming its URL.
    struct NoListeningLine: Error { let line: String }

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
