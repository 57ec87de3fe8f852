import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``DataLoading``: libcurl's multi interface for http(s), direct reads for `file:`
/// URLs, and decoding for `data:` URLs.
///
/// - Validates status codes (200...299; anything else fails with the status in the error, and a
///   429 or 503 with its `Retry-After`).
/// - Enforces ``Configuration/maximumResponseDataSize`` from Content-Length before reading the
///   body, and while receiving; a body shorter than its Content-Length fails instead of passing
///   as complete.
/// - Answers a 401 or 407 through ``Configuration/credentialProvider``, once: without a
///   credential, or when the credential is refused, the load fails with the status at once.
/// - Follows redirects (up to 16) by ``Configuration/redirectPolicy``: credentials never go to
///   another origin, and https never downgrades to http unless allowed.
/// - Keeps no cookies: a response's `Set-Cookie` is not stored and nothing is added to a
///   request's own `Cookie` header, so equal requests send the same bytes (as the pipeline's
///   keys assume).
/// - Always has timeouts (``Configuration/timeoutForRequest``, ``Configuration/timeoutForResource``).
/// - As URLSession on Linux: TLS with the system's CA store, proxies from `http_proxy`,
///   `https_proxy` and `no_proxy`, every content coding libcurl decodes (gzip, deflate, br, zstd)
///   accepted and decoded. Differences: the `User-Agent` it sends by default names Comet, and a
///   request with an `httpBodyStream` fails (bodies are sent from `httpBody`).
///
/// One thread per loader, started by its first http(s) load, drives every transfer: it sleeps
/// until a socket is ready or a load is started or cancelled (an idle loader costs no CPU), and
/// connections stay open for reuse. A load's body reaches `didReceiveData` as its
/// ``DataDelivery`` asks: with `.batched` (what the pipeline asks when it does not decode
/// progressively) a body that arrives within 0.1 s comes once, whole, without a copy.
///
/// Thread-safe. Create one per pipeline (the default) or share one between pipelines. An http(s)
/// load's `didReceiveData` and `completion` run on the loader's thread: they must return quickly.
/// They may start or cancel loads. After `cancel()` returns, no callback of that load starts
/// except its completion (with `URLError(.cancelled)`).
public final class DataLoader: DataLoading, Sendable {
    /// Settings fixed when the loader is created (also ``URLSessionDataLoader``'s).
    public struct Configuration: Sendable {
        /// Seconds a request may wait for more data before it fails. Default 30.
        public var timeoutForRequest: TimeInterval = 30
        /// Seconds a whole download may take. Default 300.
        public var timeoutForResource: TimeInterval = 300
        /// The largest response body accepted, in bytes; `nil` for no limit. Default 100 MiB.
        public var maximumResponseDataSize: Int? = 100 << 20
        /// Whether `file:` URLs may be loaded. Default `true`; turn it off when URLs come from
        /// untrusted input.
        public var allowsFileURLs = true
        /// Headers added to every HTTP request that does not set them itself.
        public var additionalHeaders: [String: String] = [:]
        /// Answers authentication challenges: return a credential for the challenge, or `nil` to
        /// refuse it (the load then fails with HTTP 401/407). Called on a Dispatch worker.
        /// Default: `nil` (no credentials).
        public var credentialProvider: (@Sendable (URLAuthenticationChallenge, URLRequest?) -> URLCredential?)?
        /// How redirects are followed. Default: credentials (`Authorization`, `Cookie`) are
        /// dropped whenever scheme, host or port changes, and https → http is refused.
        public var redirectPolicy = RedirectPolicy()

        /// Creates a configuration with the documented defaults.
        public init() {}
    }

    /// The loader's settings.
    public let configuration: Configuration
    /// The transfer thread, started by the first http(s) load: a loader that is replaced before
    /// use or that only reads `file:` and `data:` URLs never starts one.
    private let lazyDriver = Locked<CurlDriver?>(nil)

    /// Creates a loader; its thread starts with the first http(s) load.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        lazyDriver.withLock { $0 }?.shutdown()
    }

    /// Whether the loader has started its transfer thread (tests).
    var hasStartedThread: Bool { lazyDriver.withLock { $0 != nil } }

    /// Connections the loader has opened so far (tests: the rest of its loads reused one).
    var connectionsOpened: Int { lazyDriver.withLock { $0 }?.connectionsOpened.load(ordering: .relaxed) ?? 0 }

    private var driver: CurlDriver? {
        lazyDriver.withLock { driver in
            if let driver { return driver }
            driver = CurlDriver.start(configuration: configuration)
            return driver
        }
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        loadData(with: request, delivery: .eachChunk, didReceiveData: didReceiveData, completion: completion)
    }

    public func loadData(
        with request: URLRequest,
        delivery: DataDelivery,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        guard let url = request.url, let scheme = url.scheme?.lowercased() else {
            completion(DataLoaderError.unsupportedURL(request.url))
            return CompletedLoadingTask()
        }
        switch scheme {
        case "http", "https":
            guard let driver else {
                completion(URLError(.unknown))
                return CompletedLoadingTask()
            }
            let transfer = CurlTransfer(
                request: request, delivery: delivery, settings: configuration, driver: driver,
                handlers: CurlTransfer.Handlers(didReceiveData: didReceiveData, completion: completion))
            driver.start(transfer)
            return transfer
        default:
            return LocalLoadingTask.load(
                url, scheme: scheme, configuration: configuration, didReceiveData: didReceiveData,
                completion: completion)
        }
    }
}

/// A load that ended before it started (invalid URL).
struct CompletedLoadingTask: DataLoadingTask {
    func cancel() {}
}
