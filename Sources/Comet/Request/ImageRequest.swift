import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What to load and how: a URL, a `URLRequest` or an async data closure, plus processors,
/// priority, options and thumbnail settings.
///
/// A cheap copy-on-write value: copying shares one storage object until a copy is mutated.
/// Equal requests (same resource, same thumbnail and processors) share work in the pipeline.
public struct ImageRequest: Sendable, CustomStringConvertible {
    /// Where the bytes come from.
    public enum Resource: Sendable {
        /// A `URL` (http, https, file, data).
        case url(URL?)
        /// A full `URLRequest` (headers, timeout, method).
        case urlRequest(URLRequest)
        /// An async closure that returns the encoded image; `id` identifies it for caches and
        /// coalescing.
        case closure(id: String, load: @Sendable () async throws -> Data)
    }

    /// How urgent a request is. Queued work starts in priority order, then first-in first-out.
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        case veryLow = 0, low, normal, high, veryHigh

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Switches that change how caches and queues are used.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Don't look in the memory cache.
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 0)
        /// Don't store the result in the memory cache.
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 1)
        /// Neither read nor write the memory cache.
        public static let disableMemoryCache: Options = [.disableMemoryCacheReads, .disableMemoryCacheWrites]
        /// Don't look in the disk cache.
        public static let disableDiskCacheReads = Options(rawValue: 1 << 2)
        /// Don't store anything in the disk cache.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 3)
        /// Neither read nor write the disk cache.
        public static let disableDiskCache: Options = [.disableDiskCacheReads, .disableDiskCacheWrites]
        /// Load from the source even when a cache has the image (the result is still stored).
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 4)
        /// Use only what the caches have; fail with ``ImagePipeline/Error/dataMissingInCache(request:)``
        /// instead of loading.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 5)
        /// Start the download at once, bypassing the data-loading queue's concurrency limit
        /// (and the rate limiter).
        public static let skipDataLoadingQueue = Options(rawValue: 1 << 6)
        /// Decode every frame of an animated image (GIF, animated WebP) into
        /// ``ImageResponse/animation``; the response's image is the first frame. Part of the
        /// cache key: an animated and a still result of one URL are cached apart. Ignored with a
        /// ``ImageRequest/thumbnail`` or processors (they make one still image).
        public static let decodeAnimation = Options(rawValue: 1 << 7)
        /// Keep the file's colour numbers instead of converting them to sRGB: the image carries
        /// the file's profile (`Image.colorProfile`) and encoders (the disk cache's
        /// processed images too) embed it again. Without it, every image with a colour profile
        /// is converted to sRGB while it decodes. Part of the cache keys. See
        /// `ImageDecodingOptions.keepsOriginalColors`.
        public static let keepOriginalColors = Options(rawValue: 1 << 8)
    }

    /// Decode-time downsampling: make a thumbnail without decoding the full image where the
    /// format allows (JPEG DCT scaling), then resize to the exact size.
    public struct ThumbnailOptions: Sendable, Hashable, CustomStringConvertible {
        enum Target: Hashable {
            case maxPixelSize(Int)
            case size(width: Int, height: Int, contentMode: ImageProcessors.Resize.ContentMode)
        }

        let target: Target
        /// The resize filter after the decode (default `ImageProcessors.Resize.Filter.lanczos3`);
        /// it also sets how far the decoder may reduce (its `decodingHeadroom`).
        public let filter: ImageProcessors.Resize.Filter

        /// The longer side becomes `maxPixelSize` pixels (never upscaled), like ImageIO's
        /// `kCGImageSourceThumbnailMaxPixelSize`, resized with `filter`.
        public init(maxPixelSize: Int, filter: ImageProcessors.Resize.Filter = .lanczos3) {
            target = .maxPixelSize(max(1, maxPixelSize))
            self.filter = filter
        }

        /// Fits or fills `width`×`height` pixels (never upscaled), resized with `filter`.
        public init(
            width: Int, height: Int, contentMode: ImageProcessors.Resize.ContentMode = .aspectFill,
            filter: ImageProcessors.Resize.Filter = .lanczos3
        ) {
            target = .size(width: max(1, width), height: max(1, height), contentMode: contentMode)
            self.filter = filter
        }

        /// What the decoder may reduce to: the target times the resize filter's headroom
        /// (`ImageProcessors.Resize.Filter.decodingHeadroom`), so that the resize after the
        /// decode keeps its sharpness.
        var downsampling: ImageDecodingOptions.Downsampling {
            func room(_ side: Int) -> Int { Int((Double(side) * filter.decodingHeadroom).rounded(.up)) }
            return switch target {
            case .maxPixelSize(let size): .maxPixelSize(room(size))
            case .size(let width, let height, .aspectFill): .covering(width: room(width), height: room(height))
            case .size(let width, let height, _): .maxPixelSize(room(min(width, height)))
            }
        }

        /// The exact resize applied after decoding.
        var resize: ImageProcessors.Resize {
            switch target {
            case .maxPixelSize(let size):
                ImageProcessors.Resize(size: Size(width: size, height: size), contentMode: .aspectFit, filter: filter)
            case .size(let width, let height, let mode):
                ImageProcessors.Resize(size: Size(width: width, height: height), contentMode: mode, filter: filter)
            }
        }

        /// E.g. `thumbnail(256×256, aspectFill)`; a filter other than Lanczos3 is named last, as in
        /// `thumbnail(maxPixelSize: 256, areaAverage)`.
        public var description: String {
            let filter = filter == .lanczos3 ? "" : ", \(filter.rawValue)"
            return switch target {
            case .maxPixelSize(let size): "thumbnail(maxPixelSize: \(size)\(filter))"
            case .size(let width, let height, let mode): "thumbnail(\(width)×\(height), \(mode.rawValue)\(filter))"
            }
        }
    }

    /// A key for ``userInfo``.
    public struct UserInfoKey: Hashable, Sendable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
    }

    private final class Storage: @unchecked Sendable {
        // Written only while uniquely referenced (copy-on-write), so sharing is safe.
        var resource: Resource
        var processors: [any ImageProcessing]
        var priority: Priority
        var options: Options
        var thumbnail: ThumbnailOptions?
        var imageID: String?
        var userInfo: [UserInfoKey: any Sendable]
        var retryPolicy: ImagePipeline.RetryPolicy?

        init(
            resource: Resource, processors: [any ImageProcessing], priority: Priority, options: Options,
            thumbnail: ThumbnailOptions?, imageID: String?, userInfo: [UserInfoKey: any Sendable]
        ) {
            self.resource = resource
            self.processors = processors
            self.priority = priority
            self.options = options
            self.thumbnail = thumbnail
            self.imageID = imageID
            self.userInfo = userInfo
        }

        /// The cache key of these values, made on first use and kept until a mutation (a
        /// request is usually looked up or loaded more than once, and making the key costs
        /// more than the lookup). Shared storages are read from many threads, so the key is
        /// published with a compare-and-exchange: two threads may both make one, one wins.
        private let cachedKey = Atomic<Unmanaged<KeyBox>?>(nil)

        func copy() -> Storage {
            let copy = Storage(
                resource: resource, processors: processors, priority: priority, options: options,
                thumbnail: thumbnail, imageID: imageID, userInfo: userInfo)
            copy.retryPolicy = retryPolicy
            return copy
        }

        func key(make: () -> ImageKey) -> KeyBox {
            if let existing = cachedKey.load(ordering: .acquiring) { return existing.takeUnretainedValue() }
            let made = Unmanaged.passRetained(KeyBox(make()))
            let (exchanged, original) = cachedKey.compareExchange(
                expected: nil, desired: made, ordering: .acquiringAndReleasing)
            if exchanged { return made.takeUnretainedValue() }
            made.release()
            return original!.takeUnretainedValue()
        }

        /// Forgets the key (called before a mutation, while uniquely referenced).
        func resetKey() {
            cachedKey.exchange(nil, ordering: .acquiringAndReleasing)?.release()
        }

        deinit { resetKey() }
    }

    /// A request's key, made once: the graph key, which the memory-cache key wraps.
    final class KeyBox: Sendable {
        let key: ImageKey

        init(_ key: ImageKey) {
            self.key = key
        }

        /// The memory-cache key: this box, wrapped (nothing more is made).
        var memoryKey: ImageCacheKey { ImageCacheKey(keyBox: self) }
    }

    private var storage: Storage

    private mutating func mutate(_ body: (Storage) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() } else { storage.resetKey() }
        body(storage)
    }

    /// What identifies the image (resource, thumbnail, processors), made once per request value.
    var key: ImageKey { storage.key { ImageKey(self) }.key }

    /// The memory-cache key, made once per request value.
    var memoryCacheKey: ImageCacheKey { storage.key { ImageKey(self) }.memoryKey }

    /// Creates a request for a URL. `nil` fails when loaded (a convenience for optional URLs).
    public init(
        url: URL?, processors: [any ImageProcessing] = [], priority: Priority = .normal,
        options: Options = [], thumbnail: ThumbnailOptions? = nil, userInfo: [UserInfoKey: any Sendable] = [:]
    ) {
        storage = Storage(
            resource: .url(url), processors: processors, priority: priority, options: options,
            thumbnail: thumbnail, imageID: nil, userInfo: userInfo)
    }

    /// Creates a request from a `URLRequest` (its headers and timeout are used when loading).
    public init(
        urlRequest: URLRequest, processors: [any ImageProcessing] = [], priority: Priority = .normal,
        options: Options = [], thumbnail: ThumbnailOptions? = nil, userInfo: [UserInfoKey: any Sendable] = [:]
    ) {
        storage = Storage(
            resource: .urlRequest(urlRequest), processors: processors, priority: priority, options: options,
            thumbnail: thumbnail, imageID: nil, userInfo: userInfo)
    }

    /// Creates a request whose bytes come from `data`; `id` names the image for caching and
    /// coalescing (two requests with the same `id` are the same image).
    public init(
        id: String, data: @escaping @Sendable () async throws -> Data, processors: [any ImageProcessing] = [],
        priority: Priority = .normal, options: Options = [], thumbnail: ThumbnailOptions? = nil,
        userInfo: [UserInfoKey: any Sendable] = [:]
    ) {
        storage = Storage(
            resource: .closure(id: id, load: data), processors: processors, priority: priority,
            options: options, thumbnail: thumbnail, imageID: id, userInfo: userInfo)
    }

    /// Where the bytes come from.
    public var resource: Resource { storage.resource }

    /// The URL, when the request has one.
    public var url: URL? {
        switch storage.resource {
        case .url(let url): url
        case .urlRequest(let request): request.url
        case .closure: nil
        }
    }

    /// The `URLRequest` the data loader sends (built from the URL with default settings when the
    /// request was made from a URL); `nil` for closure requests and nil URLs.
    public var urlRequest: URLRequest? {
        switch storage.resource {
        case .url(let url): url.map { URLRequest(url: $0) }
        case .urlRequest(let request): request
        case .closure: nil
        }
    }

    /// Processors applied in order after decoding. Default: none.
    public var processors: [any ImageProcessing] {
        get { storage.processors }
        set { mutate { $0.processors = newValue } }
    }

    /// The request's priority; default `.normal`. Change a running task's priority through
    /// ``ImageTask/priority``.
    public var priority: Priority {
        get { storage.priority }
        set { mutate { $0.priority = newValue } }
    }

    /// Cache and queue switches; default none.
    public var options: Options {
        get { storage.options }
        set { mutate { $0.options = newValue } }
    }

    /// Decode-time downsampling; default `nil` (full size).
    public var thumbnail: ThumbnailOptions? {
        get { storage.thumbnail }
        set { mutate { $0.thumbnail = newValue } }
    }

    /// Overrides the identity of the image in cache keys and coalescing (e.g. a URL without its
    /// expiring signature query): requests with equal `imageID`s are the same image, whatever
    /// their URLs and headers. Default: the URL's absolute string, or the closure's `id`. (A
    /// `URLRequest` that sets headers, a body or a method other than GET then also keys by a
    /// digest of them; see <doc:CacheKeys>.)
    public var imageID: String? {
        get { storage.imageID ?? url?.absoluteString }
        set { mutate { $0.imageID = newValue } }
    }

    /// The ``imageID`` when it was set (or given as a closure request's `id`), else `nil`.
    var explicitImageID: String? { storage.imageID }

    /// Free-form values carried with the request (not part of any key).
    public var userInfo: [UserInfoKey: any Sendable] {
        get { storage.userInfo }
        set { mutate { $0.userInfo = newValue } }
    }

    /// The retry policy of this request, in place of the pipeline's
    /// ``ImagePipeline/Configuration/retryPolicy``; `nil` (the default) uses the pipeline's. Not
    /// part of any key: a download shared by several requests follows the policy of the one that
    /// started it.
    public var retryPolicy: ImagePipeline.RetryPolicy? {
        get { storage.retryPolicy }
        set { mutate { $0.retryPolicy = newValue } }
    }

    public var description: String {
        var text = "ImageRequest(\(imageID ?? "nil URL")"
        if let thumbnail { text += ", \(thumbnail)" }
        if !processors.isEmpty { text += ", processors: [\(processors.map(\.identifier).joined(separator: ", "))]" }
        if priority != .normal { text += ", priority: \(priority)" }
        return text + ")"
    }
}

extension ImageRequest: ExpressibleByStringLiteral {
    /// A request for the URL in the string literal.
    public init(stringLiteral value: String) {
        self.init(url: URL(string: value))
    }
}
