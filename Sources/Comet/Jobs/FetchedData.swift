import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One piece of data delivered by a ``FetchDataJob``: a chunk while loading, or the whole.
struct FetchedData: Sendable {
    var data: Data
    var response: URLResponse?
    var cacheType: ImageResponse.CacheType?
}
