import FlyingFox
import FlyingSocks
import Foundation

/// One FlyingFox socket pool for every ``TestServer`` in the process, so that all of them wait on
/// one `epoll` loop and hold one Dispatch thread between them.
///
/// FlyingFox gives each `HTTPServer` its own pool by default, and a pool with a socket to watch
/// (a listening server always has one) parks a thread of its Dispatch queue in `epoll_wait`.
/// The parallel root run has some 200 servers alive over its course: near libdispatch's thread
/// cap, where URLSession's own queues stopped being served and its requests timed out (#57).
///
/// A server runs this pool as its own: ``prepare()`` waits for the shared loop to be ready and
/// ``run()`` parks (holding no thread) until the server cancels it when it stops; the sockets'
/// waits go to the shared loop, which runs for the life of the process.
public final class SharedSocketPool: AsyncSocketPool {
    /// The pool of the process's test servers.
    public static let shared = SharedSocketPool()

    private let pool = SocketPool<ePoll>.ePoll(maxEvents: 64)
    private let prepared: Task<Void, any Error>

    private init() {
        let pool = pool
        prepared = Task { try await pool.prepare() }
        Task { [prepared] in
            try await prepared.value
            try await pool.run()
        }
    }

    /// Waits until the shared loop is ready to watch sockets.
    public func prepare() async throws {
        try await prepared.value
    }

    /// Parks until cancelled: the shared loop does the running, for every server.
    public func run() async throws {
        // A sleep is the plain way to park a task without a thread; cancellation ends it.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    /// Waits, on the shared loop, until `socket` is ready for `events`.
    public func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        try await pool.suspendSocket(socket, untilReadyFor: events)
    }
}
