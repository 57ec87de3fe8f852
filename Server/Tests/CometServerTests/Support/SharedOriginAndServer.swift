import CometServer
import Foundation

/// One origin and one server for every test of the suites that use it, started on first use
/// and left running until the test process ends: a server per test would take the parallel
/// suite past libdispatch's thread limit. Tests that share it must not depend on the
/// origin's counts of shared paths (each uses paths of its own for that) or on the server's
/// configuration (the tests' default, ``RunningServer/configuration()``).
enum SharedOriginAndServer {
    private static let started = Task { () async throws -> (OriginServer, RunningServer) in
        let origin = try await OriginServer.start()
        return (origin, try await RunningServer.start())
    }

    /// The shared origin and server, started on the first call.
    static func get() async throws -> (OriginServer, RunningServer) {
        try await started.value
    }
}
