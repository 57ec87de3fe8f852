/// How a ``RedisResultStore`` names its keys and runs its cross-instance single-flight.
public struct RedisResultStoreConfiguration: Sendable {
    /// Prepended to every key: results under `<prefix>r:<key>`, leases under `<prefix>l:<key>`.
    /// Default `comet:`.
    public var keyPrefix: String
    /// How long a lease holds off other instances: the longest a producer is expected to take.
    /// An instance whose producer takes longer (or died) loses its lease, and a waiting instance
    /// produces instead. Default 10 s.
    public var leaseDuration: Duration
    /// The first wait between polls while another instance produces; doubles up to
    /// ``maximumPollInterval``. Default 5 ms.
    public var initialPollInterval: Duration
    /// The cap on the poll interval. Default 50 ms.
    public var maximumPollInterval: Duration
    /// Results larger than this are served but not stored. Default 8 MiB.
    public var maximumStoredBytes: Int

    /// A configuration with the defaults above.
    public init(
        keyPrefix: String = "comet:",
        leaseDuration: Duration = .seconds(10),
        initialPollInterval: Duration = .milliseconds(5),
        maximumPollInterval: Duration = .milliseconds(50),
        maximumStoredBytes: Int = 8 << 20
    ) {
        self.keyPrefix = keyPrefix
        self.leaseDuration = leaseDuration
        self.initialPollInterval = initialPollInterval
        self.maximumPollInterval = max(initialPollInterval, maximumPollInterval)
        self.maximumStoredBytes = maximumStoredBytes
    }
}
