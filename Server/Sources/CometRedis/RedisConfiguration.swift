/// Where a ``RedisClient`` connects and how long it lets Redis take.
///
/// A value type, freely shared between threads.
public struct RedisConfiguration: Sendable {
    /// The server's IPv4/IPv6 address or host name. Default `127.0.0.1`.
    public var host: String
    /// The server's TCP port. Default `6379`.
    public var port: Int
    /// The longest a TCP connect may take before the call fails. Default 200 ms.
    public var connectTimeout: Duration
    /// The longest one command may wait to be written and answered (the socket's send and
    /// receive timeouts), and the longest it may wait in the queue for a free connection.
    /// Default 100 ms.
    public var commandTimeout: Duration
    /// Connections, each on its own dedicated thread: the most commands in flight at once.
    /// Default 4.
    public var poolSize: Int
    /// Commands that may wait for a free connection; past it a call fails at once with
    /// ``RedisError/overloaded``. Default 256.
    public var maxQueuedCommands: Int
    /// After a connection failure or timeout, how long calls fail at once without touching
    /// Redis. Doubles with each failed probe up to ``maximumBackoff``. Default 250 ms.
    public var initialBackoff: Duration
    /// The cap on the backoff. Default 5 s.
    public var maximumBackoff: Duration

    /// A configuration for `host:port` with the defaults above.
    public init(
        host: String = "127.0.0.1",
        port: Int = 6379,
        connectTimeout: Duration = .milliseconds(200),
        commandTimeout: Duration = .milliseconds(100),
        poolSize: Int = 4,
        maxQueuedCommands: Int = 256,
        initialBackoff: Duration = .milliseconds(250),
        maximumBackoff: Duration = .seconds(5)
    ) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.poolSize = max(1, poolSize)
        self.maxQueuedCommands = max(0, maxQueuedCommands)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }
}
