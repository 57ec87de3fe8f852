/// What one source fetch may cost.
///
/// Thread-safe (a value).
public struct SourceFetchLimits: Sendable, Hashable {
    /// The largest source body, in bytes (Content-Length and counted). Default 32 MiB.
    public var maximumBytes: Int
    /// The most redirects followed. Default 5.
    public var maximumRedirects: Int
    /// Seconds a source may take to answer, and to send its body. Default 10.
    public var timeout: Double

    /// Creates limits; every parameter has the default documented on its property.
    public init(maximumBytes: Int = 32 << 20, maximumRedirects: Int = 5, timeout: Double = 10) {
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.timeout = timeout
    }
}
