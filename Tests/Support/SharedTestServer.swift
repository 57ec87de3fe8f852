/// One ``TestServer`` for all the tests of a suite, started by the first that asks.
///
/// A live server's event loop holds a Dispatch thread, and libdispatch stops at 255: a parallel
/// run of many server-based tests, each with its own server, can take every thread and stall.
/// Tests that can share a server (each on its own paths) use ``common``.
public final class SharedTestServer: Sendable {
    /// The server shared by the tests that use it, process-wide.
    public static let common = SharedTestServer()

    private let starting: Task<TestServer, any Error>

    /// Starts the server in the background.
    public init() {
        starting = Task { try await TestServer.start() }
    }

    /// The running server.
    public var server: TestServer {
        get async throws { try await starting.value }
    }
}
