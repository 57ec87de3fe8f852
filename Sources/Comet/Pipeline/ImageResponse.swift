import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loaded image and where it came from.
public struct ImageResponse: @unchecked Sendable {
    // URLResponse is immutable once delivered; corelibs-foundation does not mark it Sendable.

    /// Where a cached result was found.
    public enum CacheType: Sendable, Hashable {
        /// The memory cache (``ImageCache``): no decoding happened.
        case memory
        /// The disk cache (``DataCache``): decoded from stored data.
        case disk
    }

    /// The image (upright, processed as the request asked).
    public var image: Image
    /// `true` for a progressive preview; the final image follows.
    public var isPreview: Bool
    /// The server's response, when the image was loaded over HTTP in this task.
    public var urlResponse: URLResponse?
    /// The cache the result came from, or `nil` when it was loaded.
    public var cacheType: CacheType?
    /// The request this responds to.
    public var request: ImageRequest

    /// Creates a response.
    public init(image: Image, isPreview: Bool = false, urlResponse: URLResponse? = nil,
                cacheType: CacheType? = nil, request: ImageRequest) {
        self.image = image
        self.isPreview = isPreview
        self.urlResponse = urlResponse
        self.cacheType = cacheType
        self.request = request
    }
}
