import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What identifies an image in the graph and the caches: the resource, the thumbnail settings
/// and the processors applied (by their stable identifiers), in order.
struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    let dataKey: String
    let thumbnail: ImageRequest.ThumbnailOptions?
    let processors: [String]

    init(dataKey: String, thumbnail: ImageRequest.ThumbnailOptions?, processors: [String]) {
        self.dataKey = dataKey
        self.thumbnail = thumbnail
        self.processors = processors
    }

    init(_ request: ImageRequest) {
        self.init(dataKey: request.imageID ?? "", thumbnail: request.thumbnail, processors: request.processors.map(\.identifier))
    }

    /// The key of the first `count` processors' result (0: the decoded image).
    func prefix(_ count: Int) -> ImageKey {
        ImageKey(dataKey: dataKey, thumbnail: thumbnail, processors: Array(processors.prefix(count)))
    }

    /// The memory-cache key.
    var memoryKey: ImageCacheKey { ImageCacheKey(self) }

    /// The disk-cache key of the encoded image: the data key plus what was done to it. Equal to
    /// the data key for a plain decode (no thumbnail, no processors).
    var diskKey: String {
        var key = dataKey
        if let thumbnail { key += "#" + thumbnail.description }
        for processor in processors { key += "#" + processor }
        return key
    }

    var description: String { diskKey }
}

/// One piece of data delivered by a ``FetchDataJob``: a chunk while loading, or the whole.
struct FetchedData: @unchecked Sendable {
    // URLResponse is immutable once delivered; corelibs-foundation does not mark it Sendable.
    var data: Data
    var response: URLResponse?
    var cacheType: ImageResponse.CacheType?
}

/// An image delivered by a decode or process job.
struct ImageResult: @unchecked Sendable {
    var image: Image
    var isPreview: Bool
    /// `false` when the decoder concealed damage: shown, never cached.
    var isClean: Bool
    var response: URLResponse?
    var cacheType: ImageResponse.CacheType?
}
