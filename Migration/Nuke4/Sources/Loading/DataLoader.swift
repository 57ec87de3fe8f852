import Foundation
import Comet
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads data with Comet's `DataLoader` (libcurl for http(s), direct reads for `file:` and
/// `data:` URLs), admitted by a scheduler (a rate limiter in front of eight concurrent loads by
/// default), behind an HTTP disk cache when the configuration's `urlCache` has disk capacity.
///
/// As in Nuke 4, the HTTP status is not an error here: a response outside 200...299 is
/// fulfilled and ``DataDecoder`` refuses it. Comet's loader stops reading such a response at
/// its status line, so the data delivered with it is empty and the response carries only the
/// URL and status code. Cancelling the token during the load rejects the promise with
/// `URLError.cancelled`; cancelling it before the scheduler starts the load leaves the promise
/// pending. Thread-safe.
///
/// The disk cache is what `URLCache` gave Nuke 4 apps on Apple platforms, on Comet's
/// `DataCache` (`HTTPCachingDataLoader`): responses are kept as their caching headers allow
/// (never `no-store`), served without touching the network while fresh (`max-age`, `Expires`),
/// and revalidated with `ETag`/`Last-Modified` when stale. Its size is the `urlCache`'s
/// `diskCapacity` and its folder the `urlCache`'s disk path (a relative path under the user's
/// cache directory, `~/.cache`); a `nil` `urlCache` or a `diskCapacity` of 0 turns it off.
public final class DataLoader: DataLoading, Sendable {
    // Nuke 4's scheduler protocol is not Sendable: it is only asked to execute, which the
    // shim's schedulers do under their own locks.
    private let loader: any Comet.DataLoading
    private let scheduler: Unchecked<AsyncScheduler>

    /// Nuke 4's default configuration: `.default` with a `URLCache` of 150 MB on disk (none in
    /// memory) in `com.github.kean.Nuke.Cache` under the user's cache directory. The path is
    /// absolute because FoundationNetworking's `URLCache` resolves a relative one in the
    /// program's working directory.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        let folder = Comet.DataCache.userCachesDirectory.appendingPathComponent(defaultCacheName, isDirectory: true)
        configuration.urlCache = URLCache(memoryCapacity: 0, diskCapacity: 150 * 1024 * 1024, diskPath: folder.path)
        return configuration
    }

    /// The folder of ``defaultConfiguration()``'s cache under the user's cache directory.
    static let defaultCacheName = "com.github.kean.Nuke.Cache"

    /// Creates a loader. From `configuration` it takes the request and resource timeouts, the
    /// additional HTTP headers and the `urlCache` (the disk cache's size and folder; see the
    /// type's documentation); other settings have no Comet counterpart. Defaults:
    /// ``defaultConfiguration()`` and `RateLimiter(scheduler: OperationQueueScheduler(maxConcurrentOperationCount: 8))`.
    public init(
        configuration: URLSessionConfiguration = DataLoader.defaultConfiguration(),
        scheduler: AsyncScheduler = RateLimiter(scheduler: OperationQueueScheduler(maxConcurrentOperationCount: 8))
    ) {
        var settings = Comet.DataLoader.Configuration()
        settings.timeoutForRequest = configuration.timeoutIntervalForRequest
        settings.timeoutForResource = configuration.timeoutIntervalForResource
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String, let value = value as? String { settings.additionalHeaders[name] = value }
        }
        let network = Comet.DataLoader(configuration: settings)
        self.loader =
            HTTPCachingDataLoader(
                loader: network, urlCache: configuration.urlCache, defaultDirectoryName: Self.defaultCacheName)
            ?? network
        self.scheduler = Unchecked(scheduler)
    }

    /// Loads `request` (see the type's documentation for statuses and cancellation).
    public func loadData(with request: URLRequest, token: CancellationToken?) -> Promise<(Data, URLResponse)> {
        Promise { fulfill, reject in
            let resolve = Unchecked((fulfill, reject))
            scheduler.value.execute(token: token) { [loader] finish in
                let finish = Unchecked(finish)
                let body = LoadedBody()
                let observation = CancellationObservation()
                let task = loader.loadData(
                    with: request,
                    didReceiveData: { data, response in
                        body.append(data, response)
                    },
                    completion: { error in
                        // As in Nuke 4 (whose URLSession was never invalidated), a load in flight
                        // keeps its loader alive: Comet's loader cancels its loads when released.
                        withExtendedLifetime(loader) {}
                        observation.end()
                        finish.value()
                        let (fulfill, reject) = resolve.value
                        switch error {
                        case nil:
                            let (data, response) = body.result(for: request)
                            fulfill((data, response))
                        case DataLoaderError.statusCode(let status)?, DataLoaderError.retryAfter(let status, _)?:
                            fulfill((Data(), LoadedBody.response(for: request, status: status)))
                        case let error?:
                            reject(error)
                        }
                    })
                observation.attach(to: token) { task.cancel() }
            }
        }
    }
}

/// The chunks of one load, gathered from the loader's callbacks.
private final class LoadedBody: Sendable {
    private let body = LockedValue<(data: Data, response: URLResponse?)>((Data(), nil))

    func append(_ chunk: Data, _ response: URLResponse) {
        body.withLock { body in
            body.data.append(chunk)
            body.response = response
        }
    }

    /// The body and its response. An empty HTTP body arrives as one empty chunk with its
    /// response; a load that delivered no chunk at all (an empty `file:`) gets a plain 200.
    func result(for request: URLRequest) -> (Data, URLResponse) {
        body.withLock { body in (body.data, body.response ?? LoadedBody.response(for: request, status: 200)) }
    }

    static func response(for request: URLRequest, status: Int) -> URLResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
    }
}
