import NIOCore
import Synchronization

/// When one connection started waiting for its current request head, if it is waiting: written
/// by the connection's handler on its event loop, read by the ``ConnectionGuard`` when a new
/// connection arrives at the limit and the one waiting longest is closed.
///
/// Thread-safe (an atomic): a head's start and end cost a store each, no lock.
final class HeadClock: Sendable {
    private static let notWaiting = Int64.max
    private let since = Atomic<Int64>(HeadClock.notWaiting)

    /// The connection waits for a head since `deadline` (the real clock: connections on
    /// different event loops are compared).
    func startsWaiting(at deadline: NIODeadline) {
        since.store(Int64(clamping: deadline.uptimeNanoseconds), ordering: .relaxed)
    }

    /// The connection's head is complete (or it is being closed).
    func stopsWaiting() {
        since.store(Self.notWaiting, ordering: .relaxed)
    }

    /// Since when the connection waits for a head (uptime nanoseconds), `nil` when it does not.
    var waitingSince: Int64? {
        let value = since.load(ordering: .relaxed)
        return value == Self.notWaiting ? nil : value
    }
}
