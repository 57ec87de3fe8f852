/// One processed image as the service stores and serves it.
///
/// Thread-safe (a value).
public struct StoredResult: Sendable, Hashable {
    /// The encoded image.
    public var bytes: [UInt8]
    /// Its media type, e.g. `image/webp`.
    public var contentType: String
    /// Its strong entity tag, quoted (`"…"`), made from the options, the source URL and the
    /// source's validator (its ETag or Last-Modified, else a digest of the result).
    public var etag: String

    /// Creates a result.
    public init(bytes: [UInt8], contentType: String, etag: String) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
    }
}
