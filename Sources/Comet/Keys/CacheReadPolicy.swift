import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a request's bytes may come from: the options that decide whether a cache may answer
/// (``ImageRequest/Options/disableDiskCacheReads``, ``ImageRequest/Options/reloadIgnoringCachedData``,
/// ``ImageRequest/Options/returnCacheDataDontLoad``) and the `URLRequest`'s cache policy.
///
/// Part of every job key, so that coalescing never lets one request answer another that fetches
/// differently: a reload never joins a fetch that may read the disk cache, and a normal request
/// never joins a cache-only one (which fails on a miss). Not part of the cache keys: the image
/// is the same wherever its bytes came from.
struct CacheReadPolicy: Hashable, Sendable {
    private let rawValue: UInt32

    /// The policy of a plain request: every cache may answer, the protocol's cache policy.
    static let `default` = CacheReadPolicy(rawValue: 0)

    private static let optionMask: ImageRequest.Options = [
        .disableDiskCacheReads, .reloadIgnoringCachedData, .returnCacheDataDontLoad,
    ]

    private init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    init(_ request: ImageRequest) {
        let options = UInt32(request.options.intersection(Self.optionMask).rawValue)
        var cachePolicy: UInt32 = 0
        if case .urlRequest(let urlRequest) = request.resource {
            cachePolicy = UInt32(truncatingIfNeeded: urlRequest.cachePolicy.rawValue)
        }
        rawValue = options | cachePolicy << 16
    }

    var isDefault: Bool { rawValue == 0 }
}
