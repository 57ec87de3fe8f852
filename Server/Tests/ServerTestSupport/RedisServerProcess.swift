import Foundation

/// A real `redis-server` (Debian's) on a free loopback port, without persistence, in its own
/// temporary folder. Tests start one each and stop it at the end; `kill()` and `start()` let a
/// test take Redis away and bring it back on the same port.
public final class RedisServerProcess: @unchecked Sendable {
    /// The `redis-server` executable, if installed (`apt-get install redis-server`).
    public static let executable: String? = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the tests that need Redis run here: when `redis-server` is installed, and always
    /// under CI (`COMET_REQUIRE_SERVICES=1`, or `COMET_REQUIRE_CORPUS=1` as `.ci/run` sets), where a
    /// missing server then fails those tests instead of skipping them quietly.
    public static var isAvailable: Bool { executable != nil || isRequired }

    /// Whether a missing `redis-server` is an error (CI) rather than a reason to skip.
    public static var isRequired: Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["COMET_REQUIRE_SERVICES", "COMET_REQUIRE_CORPUS"].contains {
            ["1", "true", "yes"].contains(environment[$0] ?? "")
        }
    }

    public let port: Int
    private let directory: URL
    private let extraArguments: [String]
    private var process: Process?

    /// Starts a server on a free port, with `extraArguments` after the defaults, and waits
    /// (a minute at most) until it accepts connections.
    public init(extraArguments: [String] = []) throws {
        port = LoopbackSocket.freePort()
        self.extraArguments = extraArguments
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("comet-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the server (again) on the same port.
    public func start() throws {
        guard let executable = Self.executable else {
            throw CocoaError(
                .executableLoad,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "redis-server is not installed (apt-get install redis-server), and this run requires it"
                ])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", directory.path, "--daemonize", "no", "--loglevel", "warning",
            ] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // A hang guard only: a loaded machine may take seconds to start a process.
        let deadline = Date().addingTimeInterval(60)
        while !LoopbackSocket.canConnect(port: port) {
            guard Date() < deadline, process.isRunning else {
                throw CocoaError(
                    .executableLoad, userInfo: [NSLocalizedDescriptionKey: "redis-server did not start on port \(port)"]
                )
            }
            usleep(10_000)
        }
    }

    /// Kills the server at once (SIGKILL), as a crash would, and waits for it to exit.
    public func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }
}
