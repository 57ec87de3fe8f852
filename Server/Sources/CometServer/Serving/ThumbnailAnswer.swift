/// What the service answers for one thumbnail request.
///
/// Thread-safe (a value).
public enum ThumbnailAnswer: Sendable, Hashable {
    /// 200 with the image.
    case image(StoredResult, headers: CachingHeaders)
    /// 304: the client's `If-None-Match` matches.
    case notModified(etag: String, headers: CachingHeaders)

    /// The caching headers of an answer.
    public struct CachingHeaders: Sendable, Hashable {
        /// `Cache-Control`, e.g. `public, max-age=86400`.
        public var cacheControl: String
        /// Whether the format came from `Accept` (then `Vary: Accept` is sent).
        public var variesOnAccept: Bool
        /// Whether the result was stored already (`X-Cache: HIT`) or made for this request
        /// (`X-Cache: MISS`).
        public var isStored: Bool
        /// Whether the image keeps the source's colour profile (`scp:0`): `Comet-Color: source`;
        /// otherwise `Comet-Color: srgb` (converted to sRGB, no profile in the file).
        public var keepsColorProfile: Bool
        /// `Content-Disposition` (`fn`, `att`), or `nil` to send none.
        public var contentDisposition: String?

        /// Creates headers.
        public init(
            cacheControl: String, variesOnAccept: Bool, isStored: Bool = false, keepsColorProfile: Bool = false,
            contentDisposition: String? = nil
        ) {
            self.cacheControl = cacheControl
            self.variesOnAccept = variesOnAccept
            self.isStored = isStored
            self.keepsColorProfile = keepsColorProfile
            self.contentDisposition = contentDisposition
        }
    }
}
