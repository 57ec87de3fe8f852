/// What the service answers for one request, a thumbnail's or an `/info` one's: the stored
/// result, or 304.
///
/// Thread-safe (a value).
public enum ServiceAnswer: Sendable, Hashable {
    /// 200 with the result (an image, or `/info`'s JSON).
    case result(StoredResult, headers: CachingHeaders)
    /// 304: the client's `If-None-Match` matches.
    case notModified(etag: String, headers: CachingHeaders)

    /// What an image's pixels hold, as `Comet-Color` says it.
    public enum Color: String, Sendable, Hashable {
        /// sRGB numbers and no profile in the file (the default).
        case srgb
        /// The source's own numbers, its colour profile embedded (`scp:0`).
        case source
    }

    /// The caching headers of an answer.
    public struct CachingHeaders: Sendable, Hashable {
        /// `Cache-Control`, e.g. `public, max-age=86400`.
        public var cacheControl: String
        /// Whether the format came from `Accept` (then `Vary: Accept` is sent).
        public var variesOnAccept: Bool
        /// Whether the result was stored already (`X-Cache: HIT`) or made for this request
        /// (`X-Cache: MISS`).
        public var isStored: Bool
        /// `Comet-Color` of an image, or `nil` for an answer that holds no pixels (`/info`).
        public var color: Color?
        /// `Content-Disposition` (`fn`, `att`), or `nil` to send none.
        public var contentDisposition: String?

        /// Creates headers. Default: stored false, no `Comet-Color`, no `Content-Disposition`.
        public init(
            cacheControl: String, variesOnAccept: Bool, isStored: Bool = false, color: Color? = nil,
            contentDisposition: String? = nil
        ) {
            self.cacheControl = cacheControl
            self.variesOnAccept = variesOnAccept
            self.isStored = isStored
            self.color = color
            self.contentDisposition = contentDisposition
        }
    }
}
