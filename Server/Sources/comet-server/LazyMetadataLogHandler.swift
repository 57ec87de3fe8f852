import Logging

/// `StreamLogHandler` with its metadata kept as set and handed to it only for a message that is
/// logged.
///
/// `StreamLogHandler` formats all its metadata into text each time a key is set, and Hummingbird
/// sets a request id on every request's logger: at a level that logs nothing per request, that
/// formatting was made for every request and never read. Output is the same.
///
/// Thread-safe (a value).
struct LazyMetadataLogHandler: LogHandler {
    private var base: StreamLogHandler
    /// The metadata set on this handler's logger.
    var metadata: Logger.Metadata

    /// Wraps `base`, taking its metadata.
    init(_ base: StreamLogHandler) {
        self.base = base
        metadata = base.metadata
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var handler = base
        handler.metadata = metadata
        handler.log(event: event)
    }
}
