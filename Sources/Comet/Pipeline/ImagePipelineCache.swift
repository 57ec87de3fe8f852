import Foundation

extension ImagePipeline {
    /// The pipeline's caches, addressed by request: `pipeline.cache[request]`.
    public struct Cache: Sendable {
        let pipeline: ImagePipeline

        /// The memory-cached image for `request` (keyed like the pipeline keys it: resource,
        /// thumbnail, processors). Setting stores it; setting `nil` removes it.
        public subscript(request: ImageRequest) -> CachedImage? {
            get { pipeline.configuration.imageCache?[request.memoryCacheKey] }
            nonmutating set { pipeline.configuration.imageCache?[request.memoryCacheKey] = newValue }
        }

        /// The original data of `request` in the disk cache.
        public func cachedData(for request: ImageRequest) -> Data? {
            guard let key = request.imageID else { return nil }
            return pipeline.configuration.dataCache?.cachedData(for: key)
        }

        /// Stores original data for `request` in the disk cache.
        public func storeCachedData(_ data: Data, for request: ImageRequest) {
            guard let key = request.imageID else { return }
            pipeline.configuration.dataCache?.storeData(data, for: key)
        }

        /// Removes the image for `request` from the memory cache, and its original data and
        /// encoded result from the disk cache.
        public func removeAll(for request: ImageRequest) {
            let key = request.key
            pipeline.configuration.imageCache?[request.memoryCacheKey] = nil
            if let dataCache = pipeline.configuration.dataCache {
                dataCache.removeData(for: key.dataKey)
                dataCache.removeData(for: key.diskKey)
            }
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
