import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loaded image and where it came from.
public struct ImageResponse: Sendable {
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
    /// Every frame, composited, when the request had ``ImageRequest/Options/decodeAnimation``
    /// and the image is animated (GIF, animated WebP); ``image`` is then the first frame. `nil`
    /// for still images and by default. See `AnimatedImage` (Imaging) for how to display it.
    public var animation: AnimatedImage?

    /// Creates a response.
    public init(
        image: Image, isPreview: Bool = false, urlResponse: URLResponse? = nil,
        cacheType: CacheType? = nil, request: ImageRequest, animation: AnimatedImage? = nil
    ) {
        self.animation = animation
        self.image = image
        self.isPreview = isPreview
        self.urlResponse = urlResponse
        self.cacheType = cacheType
        self.request = request
    }

    /// The response for a memory-cache hit.
    init(memoryCacheHit cached: CachedImage, request: ImageRequest) {
        self.init(image: cached.image, cacheType: .memory, request: request, animation: cached.animation)
    }
}
