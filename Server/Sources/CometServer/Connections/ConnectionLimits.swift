import NIOCore

/// How long a connection may take to send a request head, stay idle, and how many may be open.
///
/// Thread-safe (a value).
public struct ConnectionLimits: Sendable, Hashable {
    /// From a connection's opening, or from the first byte of its next request, to the end of
    /// that request's head; a connection past it is closed (slow or half-sent headers).
    /// Default 10 s.
    public var headerReadTimeout: Duration = .seconds(10)
    /// How long a connection may stay open with no request in progress. Default 60 s.
    public var idleTimeout: Duration = .seconds(60)
    /// Open connections at most. At the limit, a new connection closes the one that has waited
    /// longest for a request head; when none is waiting for a head, the new one is closed.
    /// Default 4096.
    public var maximumConnections: Int = 4096

    /// The default limits.
    public init() {}

    /// Limits with the given values.
    public init(headerReadTimeout: Duration, idleTimeout: Duration, maximumConnections: Int) {
        self.headerReadTimeout = headerReadTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }
}

extension Duration {
    /// The same span as NIO's `TimeAmount` (nanoseconds).
    var timeAmount: TimeAmount {
        .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
