import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An image delivered by a decode or process job.
struct ImageResult: Sendable {
    var image: Image
    var isPreview: Bool
    /// `false` when the decoder concealed damage: shown, never cached.
    var isClean: Bool
    var response: URLResponse?
    var cacheType: ImageResponse.CacheType?
    /// The decoded-image backlog ticket this bitmap holds until it is delivered (`nil` for images
    /// from the memory or disk cache and for previews).
    var backlogTicket: DecodedImageBacklog.Ticket? = nil
    /// Every frame, when the request asked for the animation and the file has one.
    var animation: AnimatedImage? = nil
}
