import Foundation

/// The pipeline's answers to "which loader, which disk cache, which key" for a request: the
/// configuration's, unless a ``ImagePipeline/Hooks`` closure is set (one `nil` check when not).
extension PipelineContext {
    var hooks: ImagePipeline.Hooks { configuration.hooks }

    /// The loader of `request`'s bytes.
    func dataLoader(for request: ImageRequest) -> any DataLoading {
        guard let hook = hooks.dataLoader else { return configuration.dataLoader }
        return hook(request)
    }

    /// The disk cache of `request`, if any.
    func dataCache(for request: ImageRequest) -> (any DataCaching)? {
        guard let hook = hooks.dataCache else { return configuration.dataCache }
        return hook(request)
    }

    /// The disk-cache key of `request`'s original data.
    func dataCacheKey(for request: ImageRequest) -> String? {
        guard let hook = hooks.cacheKey, let key = hook(request) else {
            return request.imageID == nil ? nil : request.dataKey
        }
        return key
    }

    /// The disk-cache key of an encoded result: ``ImageKey/diskKey`` on the hook's data key.
    func encodedCacheKey(for key: ImageKey, request: ImageRequest) -> String {
        guard let hook = hooks.cacheKey, let dataKey = hook(request) else { return key.diskKey }
        return dataKey + key.diskKey.dropFirst(key.dataKey.count)
    }

    /// The bytes to write for `request` (``ImagePipeline/Hooks/willCacheData``); `nil`: none.
    func bytesToCache(_ data: Data, for request: ImageRequest) -> Data? {
        guard let hook = hooks.willCacheData else { return data }
        return hook(data, request)
    }
}
