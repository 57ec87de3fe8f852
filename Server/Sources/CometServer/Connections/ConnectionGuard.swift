import Locking
import NIOCore

/// The server's open connections: counts them against ``ConnectionLimits/maximumConnections``,
/// knows which are waiting for a request head and since when (each connection's ``HeadClock``,
/// read only at the limit), and picks the one to close when
/// a new connection arrives at the limit. One per server, shared by every connection's
/// ``ConnectionGuardHandler``.
///
/// Thread-safe: its state is behind a lock that is never held while a channel is closed or a
/// metric is recorded.
final class ConnectionGuard: Sendable {
    /// Why the guard closed a connection (a metric label).
    enum Closing: String, Sendable {
        case headerTimeout = "header_timeout"
        case evicted
        case refused
    }

    private struct State {
        var open = 0
        /// The cancellation of the request in progress on each connection (HTTP/1 requests of
        /// one connection are answered one at a time).
        var inProgress: [ObjectIdentifier: @Sendable () -> Void] = [:]
        /// Every admitted connection's head clock (whether, and since when, it waits for a
        /// request head) and channel: the candidates for closing at the limit.
        var admitted: [ObjectIdentifier: (clock: HeadClock, channel: any Channel)] = [:]
    }

    let limits: ConnectionLimits
    private let state = Locked(State())
    private let onChange: @Sendable (_ open: Int, _ closing: Closing?) -> Void

    /// A guard for `limits`; `onChange` hears the number of open connections after each change,
    /// and why the guard closed one, when it did (called outside the lock, on any thread).
    init(
        limits: ConnectionLimits, onChange: @escaping @Sendable (_ open: Int, _ closing: Closing?) -> Void = { _, _ in }
    ) {
        self.limits = limits
        self.onChange = onChange
    }

    /// Open connections now.
    var openCount: Int { state.withLock { $0.open } }

    /// A handler for one new connection.
    func makeHandler() -> ConnectionGuardHandler { ConnectionGuardHandler(guard: self) }

    /// Counts a new connection in, with the clock its handler keeps of its heads; at the limit,
    /// closes the connection that has waited longest for a head to make room, or returns
    /// `false` (the caller closes the new one).
    func admit(_ id: ObjectIdentifier, clock: HeadClock, channel: any Channel) -> Bool {
        let (admitted, victim, open): (Bool, (any Channel)?, Int) = state.withLock { state in
            state.open += 1
            guard state.open > limits.maximumConnections else {
                state.admitted[id] = (clock, channel)
                return (true, nil, state.open)
            }
            var oldest: (id: ObjectIdentifier, since: Int64)?
            for (candidate, entry) in state.admitted {
                guard let since = entry.clock.waitingSince, since < oldest?.since ?? .max else { continue }
                oldest = (candidate, since)
            }
            guard let oldest, let victim = state.admitted.removeValue(forKey: oldest.id) else {
                state.open -= 1
                return (false, nil, state.open)
            }
            victim.clock.stopsWaiting()
            state.admitted[id] = (clock, channel)
            return (true, victim.channel, state.open)
        }
        victim?.close(promise: nil)
        onChange(open, admitted ? (victim == nil ? nil : .evicted) : .refused)
        return admitted
    }

    /// The guard closed a connection whose head took too long.
    func timedOut(_ id: ObjectIdentifier) {
        onChange(openCount, .headerTimeout)
    }

    /// An admitted connection closed: the request in progress on `channel`, if any, is
    /// cancelled.
    func closed(_ id: ObjectIdentifier, channel: any Channel) {
        let (open, cancel) = state.withLock { state in
            state.admitted[id] = nil
            state.open -= 1
            return (state.open, state.inProgress.removeValue(forKey: ObjectIdentifier(channel)))
        }
        cancel?()
        onChange(open, nil)
    }

    /// The client closed its side of `channel` (its input): the request in progress on it, if
    /// any, is cancelled, as nginx does for a client that closes early (no answer can be read
    /// by a client that has gone).
    func inputClosed(_ channel: any Channel) {
        let cancel = state.withLock { $0.inProgress.removeValue(forKey: ObjectIdentifier(channel)) }
        cancel?()
    }

    /// Runs `body` in a task of its own, cancelled when the client closes `channel` (or its
    /// side of it) before it ends, or when the caller's task is cancelled.
    func cancellingOnDisconnect<T: Sendable>(
        of channel: any Channel,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task { try await body() }
        let id = ObjectIdentifier(channel)
        state.withLock { $0.inProgress[id] = { work.cancel() } }
        // Closed before the registration: nothing else will cancel it.
        if !channel.isActive { work.cancel() }
        defer { state.withLock { _ = $0.inProgress.removeValue(forKey: id) } }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }
}
