import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers from a ``DataCaching`` when it can, else loads with another ``DataLoading`` and
/// stores what it loaded in the cache.
public final class CachingDataLoader: DataLoading {
    private let loader: DataLoading
    private let cache: DataCaching
    private let queue = DispatchQueue(label: "com.comet.NukeCompat.CachingDataLoader")

    /// Creates a loader that puts `cache` in front of `loader`.
    public init(loader: DataLoading, cache: DataCaching) {
        self.loader = loader
        self.cache = cache
    }

    /// The cached data and response when the cache has them, else the loaded ones (then cached).
    public func loadData(with request: URLRequest, token: CancellationToken?) -> Promise<(Data, URLResponse)> {
        cache.response(for: request, token: token)
            .then(on: queue) { cached -> (Data, URLResponse) in (cached.data, cached.response) }
            .recover(on: queue) { _ in
                guard token?.isCancelling != true else { return Promise { _, _ in } }
                return self.loader.loadData(with: request, token: token).then(on: self.queue) { data, response in
                    self.cache.setResponse(CachedURLResponse(response: response, data: data), for: request)
                }
            }
    }
}
