import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``DataLoading`` that puts an HTTP cache, kept in a ``DataCaching`` (a ``DataCache`` on disk),
/// in front of another loader: what `URLCache` does for a `URLSession` on Apple platforms, which
/// FoundationNetworking's `URLCache` does not do on Linux.
///
/// ```swift
/// let loader = HTTPCachingDataLoader(
///     loader: DataLoader(), cache: try DataCache(name: "com.example.http"))
/// let pipeline = ImagePipeline {
///     $0.dataLoader = loader
///     $0.dataCache = nil
/// }
/// ```
///
/// It keeps the rules of a private HTTP cache (RFC 9111):
/// - **Stored:** complete 200 and 203 answers to GET requests, unless the response or the request
///   says `Cache-Control: no-store` or the response says `Vary: *`, and only if they can be used
///   later (a freshness lifetime or a validator). A `no-store` answer also removes what was
///   stored before it. A body larger than ``Configuration/maximumEntrySize``, a failed, cut-short
///   or cancelled load, and a request with a `Range` or validators of its own are never stored.
/// - **Fresh:** for `max-age`, else `Expires` − `Date`, else a tenth of the time since
///   `Last-Modified` (at most a day); an `Age` header counts. A fresh entry is delivered without
///   touching the network; `no-cache` in the response makes every use revalidate.
/// - **Revalidated:** a stale entry with an `ETag` or a `Last-Modified` is asked for with
///   `If-None-Match` / `If-Modified-Since`; a 304 (which the inner loader reports as
///   ``DataLoaderError/statusCode(_:)`` 304) delivers the stored body and makes it fresh again
///   for its original lifetime; a 200 replaces it. Without a validator the entry is loaded again.
/// - **The request's `cachePolicy`** is honoured as by `URLSession`:
///   `.reloadIgnoringLocalCacheData` skips the stored entry (and stores the answer),
///   `.returnCacheDataElseLoad` uses any stored entry however old, `.returnCacheDataDontLoad`
///   fails with `URLError(.resourceUnavailable)` when nothing is stored, and
///   `.reloadRevalidatingCacheData` (or `Cache-Control: no-cache` in the request) always revalidates.
///
/// Entries are keyed by the request's ``ImageRequest/dataKey`` (the URL, and a digest of any
/// header fields the request sets), prefixed with `http:`, so one `DataCache` may also hold a
/// pipeline's data. Stored and revalidated bodies arrive as one chunk, with the stored response
/// (its `Content-Length` set to the body's length, `Content-Encoding` removed: the body is kept
/// decoded). A 304 refreshes the entry's age but keeps its stored header fields (the inner
/// loader reports a 304 without its header fields).
///
/// Thread-safe. Cache reads run on the loader's serial queue, never on the caller's thread, and
/// inner loads are started from there; callbacks come on that queue or on the inner loader's
/// threads, and never after `completion`.
public final class HTTPCachingDataLoader: DataLoading, Sendable {
    /// Settings fixed when the loader is made.
    public struct Configuration: Sendable {
        /// The largest body stored, in bytes; `nil` for no limit. Default 10 MiB. `URLCache`
        /// stored bodies up to 5% of its disk capacity.
        public var maximumEntrySize: Int? = 10 << 20
        /// The fraction of the time between `Last-Modified` and `Date` that a response without
        /// an explicit lifetime stays fresh. Default 0.1 (RFC 9111's suggestion).
        public var heuristicFreshnessFraction = 0.1
        /// The longest heuristic freshness, in seconds. Default one day.
        public var maximumHeuristicFreshness: TimeInterval = 86_400

        /// Creates a configuration with the documented defaults.
        public init() {}
    }

    /// The loader that reaches the network.
    public let loader: any DataLoading
    /// Where responses are kept.
    public let cache: any DataCaching
    /// The settings.
    public let configuration: Configuration
    private let policy: HTTPCachePolicy
    private let clock: @Sendable () -> Date
    /// Where cache reads run and inner loads start: one serial queue, so a burst of loads takes
    /// one thread, not one each (starting a `URLSession` task may wait for the session's queue,
    /// and Dispatch would add a thread for every load waiting there).
    private let queue = DispatchQueue(label: "Comet.HTTPCachingDataLoader", qos: .userInitiated)

    /// A loader that caches the responses of `loader` in `cache`.
    public convenience init(loader: any DataLoading, cache: any DataCaching, configuration: Configuration = .init()) {
        self.init(loader: loader, cache: cache, configuration: configuration, clock: { Date() })
    }

    /// `clock`: the current time (tests move it).
    init(
        loader: any DataLoading, cache: any DataCaching, configuration: Configuration,
        clock: @escaping @Sendable () -> Date
    ) {
        self.loader = loader
        self.cache = cache
        self.configuration = configuration
        self.policy = HTTPCachePolicy(
            heuristicFraction: configuration.heuristicFreshnessFraction,
            maximumHeuristicLifetime: configuration.maximumHeuristicFreshness)
        self.clock = clock
    }

    /// The cache key of `request`'s entry.
    static func key(for request: URLRequest) -> String {
        "http:" + ImageRequest(urlRequest: request).dataKey
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        loadData(with: request, delivery: .eachChunk, didReceiveData: didReceiveData, completion: completion)
    }

    /// Loads as ``loadData(with:didReceiveData:completion:)`` does, passing `delivery` on to the
    /// inner loader (a stored answer is delivered whole either way).
    public func loadData(
        with request: URLRequest,
        delivery: DataDelivery,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let task = HTTPCachingLoadTask(didReceiveData: didReceiveData, completion: completion)
        guard HTTPCachePolicy.isCacheable(request) else {
            task.attach(
                loader.loadData(
                    with: request, delivery: delivery, didReceiveData: didReceiveData, completion: task.finish))
            return task
        }
        queue.async { [self] in
            guard !task.isCancelled else { return task.finish(URLError(.cancelled)) }
            let key = Self.key(for: request)
            let stored = cache.cachedData(for: key).flatMap(HTTPCacheEntry.init(decoding:))
            switch policy.decide(request, stored: stored, now: clock()) {
            case .useStored:
                guard let stored else { return task.finish(URLError(.resourceUnavailable)) }
                task.deliver(stored)
            case .failNotStored:
                task.finish(URLError(.resourceUnavailable))
            case .load(let stores):
                load(
                    request, for: request, key: key, stores: stores, revalidating: nil, delivery: delivery, task: task)
            case .revalidate(let conditional):
                load(
                    conditional, for: request, key: key, stores: true, revalidating: stored, delivery: delivery,
                    task: task)
            }
        }
        return task
    }

    /// Sends `sent` (`original`, or its conditional form) with the inner loader, passing its
    /// chunks on and keeping them for the cache; a 304 to a revalidation delivers `revalidating`.
    private func load(
        _ sent: URLRequest, for original: URLRequest, key: String, stores: Bool, revalidating: HTTPCacheEntry?,
        delivery: DataDelivery, task: HTTPCachingLoadTask
    ) {
        let body = HTTPCachingBody(limit: stores ? configuration.maximumEntrySize : 0)
        let inner = loader.loadData(
            with: sent, delivery: delivery,
            didReceiveData: { [didReceiveData = task.didReceiveData] data, response in
                body.append(data, response: response)
                didReceiveData(data, response)
            },
            completion: { [self] error in
                if let revalidating, case DataLoaderError.statusCode(304)? = error {
                    var refreshed = revalidating
                    refreshed.receivedAt = clock()
                    refreshed.responseDate = refreshed.receivedAt
                    cache.storeData(refreshed.encoded(), for: key)
                    return task.deliver(refreshed)
                }
                if error == nil, stores { keep(body, for: original, key: key) }
                task.finish(error)
            })
        task.attach(inner)
    }

    /// Stores a complete body when its response may be stored; otherwise forgets what was stored
    /// for the request (the new answer replaced it, or forbids keeping it).
    private func keep(_ body: HTTPCachingBody, for request: URLRequest, key: String) {
        let (data, response) = body.contents
        guard let http = response as? HTTPURLResponse else { return }
        let now = clock()
        if let data, policy.isStorable(http, for: request, now: now) {
            cache.storeData(HTTPCacheEntry(response: http, body: data, now: now).encoded(), for: key)
        } else {
            cache.removeData(for: key)
        }
    }
}
