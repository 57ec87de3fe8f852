import Foundation
import Comet
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads data with Comet's `DataLoader` (URLSession for http(s), direct reads for `file:` and
/// `data:` URLs), admitted by a scheduler (a rate limiter in front of eight concurrent loads by
/// default).
///
/// As in Nuke 4, the HTTP status is not an error here: a response outside 200...299 is
/// fulfilled and ``DataDecoder`` refuses it. Comet's loader stops reading such a response at
/// its status line, so the data delivered with it is empty and the response carries only the
/// URL and status code. Cancelling the token during the load rejects the promise with
/// `URLError.cancelled`; cancelling it before the scheduler starts the load leaves the promise
/// pending. Thread-safe.
public final class DataLoader: DataLoading, @unchecked Sendable {
    // Safe: both stored properties are immutable; Comet.DataLoader is Sendable and the
    // scheduler is only asked to execute, which the shim's schedulers do under their own locks.
    private let loader: Comet.DataLoader
    private let scheduler: Unchecked<AsyncScheduler>

    /// Creates a loader. From `configuration` it takes the request and resource timeouts and
    /// the additional HTTP headers (other settings have no Comet counterpart). Defaults: the
    /// `.default` configuration and `RateLimiter(scheduler: OperationQueueScheduler(maxConcurrentOperationCount: 8))`.
    public init(
        configuration: URLSessionConfiguration = .default,
        scheduler: AsyncScheduler = RateLimiter(scheduler: OperationQueueScheduler(maxConcurrentOperationCount: 8))
    ) {
        var settings = Comet.DataLoader.Configuration()
        settings.timeoutForRequest = configuration.timeoutIntervalForRequest
        settings.timeoutForResource = configuration.timeoutIntervalForResource
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String, let value = value as? String { settings.additionalHeaders[name] = value }
        }
        self.loader = Comet.DataLoader(configuration: settings)
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

/// The chunks of one load, gathered from URLSession's delegate queue.
// Safe: `data` and `response` are only touched under `lock`.
private final class LoadedBody: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var response: URLResponse?

    func append(_ chunk: Data, _ response: URLResponse) {
        lock.locked {
            data.append(chunk)
            self.response = response
        }
    }

    /// The body and its response; an empty body has no chunk, so its response is rebuilt.
    func result(for request: URLRequest) -> (Data, URLResponse) {
        lock.locked { (data, response ?? LoadedBody.response(for: request, status: 200)) }
    }

    static func response(for request: URLRequest, status: Int) -> URLResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
    }
}
