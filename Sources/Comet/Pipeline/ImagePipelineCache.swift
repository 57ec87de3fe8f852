import Foundation

extension ImagePipeline {
    /// The pipeline's caches, addressed by request: `pipeline.cache[request]`.
    public struct Cache: Sendable {
        let pipeline: ImagePipeline

        /// The memory-cached image for `request` (keyed like the pipeline keys it: resource,
        /// thumbnail, processors); `nil` when the request has
        /// ``ImageRequest/Options/disableMemoryCacheReads``. Setting stores it (not with
        /// ``ImageRequest/Options/disableMemoryCacheWrites``); setting `nil` removes it, whatever
        /// the options, as in Nuke.
        public subscript(request: ImageRequest) -> CachedImage? {
            get {
                guard !request.options.contains(.disableMemoryCacheReads) else { return nil }
                return pipeline.configuration.imageCache?[request.memoryCacheKey]
            }
            nonmutating set {
                guard newValue == nil || !request.options.contains(.disableMemoryCacheWrites) else { return }
                pipeline.configuration.imageCache?[request.memoryCacheKey] = newValue
            }
        }

        /// The original data of `request` in the disk cache (the request's own cache and key
        /// when ``Hooks`` choose them); `nil` when the request has
        /// ``ImageRequest/Options/disableDiskCacheReads``.
        public func cachedData(for request: ImageRequest) -> Data? {
            guard !request.options.contains(.disableDiskCacheReads),
                let key = pipeline.context.dataCacheKey(for: request)
            else { return nil }
            return pipeline.context.dataCache(for: request)?.cachedData(for: key)
        }

        /// Stores original data for `request` in the disk cache (nothing with
        /// ``ImageRequest/Options/disableDiskCacheWrites``).
        public func storeCachedData(_ data: Data, for request: ImageRequest) {
            guard !request.options.contains(.disableDiskCacheWrites),
                let key = pipeline.context.dataCacheKey(for: request)
            else { return }
            pipeline.context.dataCache(for: request)?.storeData(data, for: key)
        }

        /// Removes the image for `request` from the memory cache, and its original data and
        /// encoded result from the disk cache.
        public func removeAll(for request: ImageRequest) {
            let key = request.key
            pipeline.configuration.imageCache?[request.memoryCacheKey] = nil
            if let dataCache = pipeline.context.dataCache(for: request) {
                dataCache.removeData(for: pipeline.context.dataCacheKey(for: request) ?? key.dataKey)
                dataCache.removeData(for: pipeline.context.encodedCacheKey(for: key, request: request))
            }
        }

        /// Evicts memory-cached images, least recently used first, until the memory cache holds
        /// at most `cost` bytes (see ``ImageCaching/trim(toCost:)``).
        public func trim(toCost cost: Int) {
            pipeline.configuration.imageCache?.trim(toCost: cost)
        }

        /// Empties both caches.
        public func removeAll() {
            pipeline.configuration.imageCache?.removeAll()
            pipeline.configuration.dataCache?.removeAll()
        }
    }

    /// The caches, addressed by request.
    public var cache: Cache { Cache(pipeline: self) }
}
