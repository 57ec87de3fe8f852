import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCachingDataLoader {
    /// A loader that caches `loader`'s responses on disk as `urlCache` did on Apple platforms, for
    /// code that configured a `URLSession`'s cache (the migration shims); `nil` when `urlCache` is
    /// `nil` or its `diskCapacity` is 0, which turned disk caching off there.
    ///
    /// - The responses go to a ``DataCache`` whose ``DataCache/sizeLimit`` is the URL cache's
    ///   `diskCapacity`, in the directory of its disk path: an absolute path as it is, a
    ///   relative one under ``DataCache/userCachesDirectory`` (Apple platforms resolved it under
    ///   the app's caches directory). FoundationNetworking does not make the path public, so it
    ///   is read from the cache's stored `cacheDirectory`; when that cannot be read, the
    ///   directory is `defaultDirectoryName` under ``DataCache/userCachesDirectory``.
    /// - Bodies up to 5% of the capacity are stored, as `URLCache` did.
    /// - Loaders made for one directory share one `DataCache` for the life of the process, so
    ///   what one stores the next sees at once.
    ///
    /// The URL cache's memory capacity has no counterpart: the shims keep images in memory.
    /// Thread-safe.
    public convenience init?(loader: any DataLoading, urlCache: URLCache?, defaultDirectoryName: String) {
        guard let urlCache, urlCache.diskCapacity > 0 else { return nil }
        let directory = Self.directory(of: urlCache, defaultName: defaultDirectoryName)
        var configuration = Configuration()
        configuration.maximumEntrySize = max(1, urlCache.diskCapacity / 20)
        self.init(
            loader: loader, cache: Self.sharedCache(at: directory, sizeLimit: urlCache.diskCapacity),
            configuration: configuration)
    }

    /// The directory `urlCache` was made for.
    static func directory(of urlCache: URLCache, defaultName: String) -> URL {
        let stored = Mirror(reflecting: urlCache).children.first { $0.label == "cacheDirectory" }?.value
        guard let url = stored as? URL else {
            return DataCache.userCachesDirectory.appendingPathComponent(defaultName, isDirectory: true)
        }
        // A relative disk path becomes a URL relative to the working directory.
        if url.baseURL != nil, !url.relativePath.hasPrefix("/") {
            return DataCache.userCachesDirectory.appendingPathComponent(url.relativePath, isDirectory: true)
        }
        return url.standardizedFileURL
    }

    private static let caches = Locked<[String: DataCache]>([:])

    /// The process's one `DataCache` for `directory`, its size limit set to `sizeLimit`.
    static func sharedCache(at directory: URL, sizeLimit: Int) -> DataCache {
        let cache = caches.withLock { caches in
            if let cache = caches[directory.path] { return cache }
            let cache = DataCache(path: directory)
            caches[directory.path] = cache
            return cache
        }
        cache.sizeLimit = sizeLimit
        return cache
    }
}
