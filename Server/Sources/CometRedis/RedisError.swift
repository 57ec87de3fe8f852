/// Why a ``RedisClient`` call failed.
public enum RedisError: Error, Sendable, Equatable {
    /// The TCP connection could not be made (refused, unreachable or past the connect timeout).
    case connectionFailed(String)
    /// The connection broke or the answer did not come within the command timeout. The
    /// connection is dropped; the next command on its thread reconnects.
    case io(String)
    /// Redis is considered down after a recent failure: the call failed without touching it.
    case unavailable
    /// Every connection was busy and the wait queue was full, or the command waited in the queue
    /// longer than the command timeout.
    case overloaded
    /// The client was closed.
    case closed
    /// Redis answered with an error reply (`-ERR ...`). Redis itself is healthy.
    case server(String)
    /// Redis answered with a reply of a type the call did not expect.
    case unexpectedReply(String)

    /// Whether this failure says Redis is unreachable or too slow (as opposed to a bad command).
    var isAvailabilityFailure: Bool {
        switch self {
        case .connectionFailed, .io: true
        default: false
        }
    }
}
