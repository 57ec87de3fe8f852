import struct Comet.ImageRequest
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What to load (a `URLRequest`), how to process it, and how it meets the caches.
///
/// A value: copy and change it freely.
public struct Request {
    /// The HTTP request (or file/data URL) to load.
    public var urlRequest: URLRequest

    /// Creates a request for `url` with `URLRequest`'s defaults.
    public init(url: URL) {
        self.urlRequest = URLRequest(url: url)
    }

    /// Creates a request from a full `URLRequest` (cache policy, headers…).
    public init(urlRequest: URLRequest) {
        self.urlRequest = urlRequest
    }

    /// Runs on the decoded image before it is cached and delivered. Default `nil`: Linux
    /// decoders already produce a bitmap, so there is no `Decompressor` by default.
    public var processor: AnyProcessor?

    /// Whether the memory cache may be read or written for this request.
    public struct MemoryCacheOptions {
        /// Look the image up in the memory cache first. Default `true`.
        public var readAllowed = true
        /// Store the loaded image in the memory cache. Default `true`.
        public var writeAllowed = true
        /// Creates the default options (read and write allowed).
        public init() {}
    }

    /// Memory-cache permissions. Default: read and write allowed.
    public var memoryCacheOptions = MemoryCacheOptions()

    /// Overrides the key that makes two requests one load (see ``Deduplicator``). Default `nil`:
    /// URL, cache policy, cellular access and processor decide.
    public var loadKey: AnyHashable?

    /// Overrides the memory-cache key. Default `nil`: URL and processor decide.
    public var cacheKey: AnyHashable?

    /// Anything you want to carry along. Not used by the shim.
    public var userInfo: Any?
}

extension Request {
    /// Adds `processor` after the existing one (a ``ProcessorComposition`` of both), or sets it.
    public mutating func process<P: Processing>(with processor: P) {
        guard let existing = self.processor else {
            self.processor = AnyProcessor(processor)
            return
        }
        self.processor = AnyProcessor(ProcessorComposition([existing, AnyProcessor(processor)]))
    }

    /// A copy of the request with `processor` added (see ``process(with:)``).
    public func processed<P: Processing>(with processor: P) -> Request {
        var request = self
        request.process(with: processor)
        return request
    }

    /// The memory-cache key: the custom ``cacheKey``, else the URL's `absoluteString` together
    /// with the processor (equal when the processors are equal). A `URLRequest` that sets
    /// headers, a body or another method than GET also keys by a digest of them (Comet's
    /// `ImageRequest.dataKey`), so that two users' credentials never share an image.
    public static func cacheKey(for request: Request) -> AnyHashable {
        request.cacheKey ?? AnyHashable(RequestCacheKey(request))
    }

    /// The key under which equivalent loads are shared: the custom ``loadKey``, else the URL
    /// together with `cachePolicy`, `allowsCellularAccess` and the processor (as in Nuke 4: a
    /// load delivers the processed image, so requests whose processors differ never share one),
    /// and a digest of the headers, body and method when the `URLRequest` sets any (see
    /// ``cacheKey(for:)``).
    public static func loadKey(for request: Request) -> AnyHashable {
        request.loadKey ?? AnyHashable(RequestLoadKey(request))
    }
}

extension URLRequest {
    /// The URL string, plus a digest of the headers, body and method when the request sets any.
    fileprivate var dataKey: String { ImageRequest(urlRequest: self).dataKey }
}

/// Default cache key: URL string (with the headers' digest) and processor.
// Safe: `processor` is only compared (AnyProcessor's `==`), never run, by the key.
private struct RequestCacheKey: Hashable, @unchecked Sendable {
    let url: String
    let processor: AnyProcessor?

    init(_ request: Request) {
        url = request.urlRequest.dataKey
        processor = request.processor
    }

    // Processors are only Equatable: the URL alone feeds the hash.
    func hash(into hasher: inout Hasher) { hasher.combine(url) }
}

/// Default load key: URL string, cache policy, cellular access and processor.
// Safe: `processor` is only compared (AnyProcessor's `==`), never run, by the key.
private struct RequestLoadKey: Hashable, @unchecked Sendable {
    let url: String
    let cachePolicy: UInt
    let allowsCellularAccess: Bool
    let processor: AnyProcessor?

    init(_ request: Request) {
        url = request.urlRequest.dataKey
        cachePolicy = request.urlRequest.cachePolicy.rawValue
        allowsCellularAccess = request.urlRequest.allowsCellularAccess
        processor = request.processor
    }

    // Processors are only Equatable: the other fields feed the hash.
    func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(cachePolicy)
        hasher.combine(allowsCellularAccess)
    }
}
