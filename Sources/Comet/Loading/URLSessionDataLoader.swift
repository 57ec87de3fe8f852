import Foundation
import Locking
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``DataLoading`` on Foundation's `URLSession` for http(s), for those who need URLSession's
/// own behaviour (its protocol classes, its configuration objects); file: and data: URLs as
/// ``DataLoader`` loads them. ``DataLoader``, the default, drives libcurl directly and spends
/// about a fifth of the CPU per response (BENCHMARKS.md, "Loaders").
///
/// Takes the same ``DataLoader/Configuration`` and keeps the same rules:
/// - Validates status codes (200...299; anything else fails with the status in the error).
/// - Enforces ``DataLoader/Configuration/maximumResponseDataSize`` from Content-Length before
///   reading the body, and while receiving; a body shorter than its Content-Length fails instead
///   of passing as complete.
/// - Answers authentication challenges at the session level through
///   ``DataLoader/Configuration/credentialProvider`` (per-task challenge handling hangs on Linux's
///   URLSession): without a credential the challenge is cancelled, so a 401 fails at once instead
///   of waiting.
/// - Follows redirects by ``DataLoader/Configuration/redirectPolicy``: credentials never go to
///   another origin, and https never downgrades to http unless allowed.
/// - Keeps no cookies, and always has timeouts.
///
/// Thread-safe. An http(s) load's `didReceiveData` and `completion` run on URLSession's own work
/// queue, on the thread that read the bytes (no hand-off per chunk): they must return quickly.
/// They may start or cancel loads (those are then done from a worker, since entering the session
/// from its own queue would deadlock). Every chunk is delivered as it arrives, whatever the
/// ``DataDelivery`` asked.
public final class URLSessionDataLoader: DataLoading, Sendable {
    /// The loader's settings (the same as ``DataLoader``'s).
    public typealias Configuration = DataLoader.Configuration

    /// The loader's settings.
    public let configuration: Configuration
    /// The `URLSession`, made by the first http(s) load: a loader that is replaced before use
    /// (a pipeline configured with another loader) or that only reads `file:` and `data:` URLs
    /// never makes one. Making a session reads the environment and the file system, and
    /// invalidating one leaves work on its queues, about 0.2 ms per pipeline in all.
    private let lazySession = Locked<URLSession?>(nil)
    private let delegate: DataLoaderSessionDelegate

    /// Creates a loader; its `URLSession` (its own) is made when the first http(s) load starts.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        delegate = DataLoaderSessionDelegate(
            maximumResponseDataSize: configuration.maximumResponseDataSize,
            credentialProvider: configuration.credentialProvider,
            redirectPolicy: configuration.redirectPolicy)
    }

    deinit {
        guard let session = lazySession.withLock({ $0 }) else { return }
        SessionCallbackQueue.performOutside { session.invalidateAndCancel() }
    }

    /// Whether the loader has made its `URLSession` (tests).
    var hasMadeSession: Bool { lazySession.withLock { $0 != nil } }

    private var session: URLSession {
        lazySession.withLock { session in
            if let session { return session }
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.timeoutIntervalForRequest = configuration.timeoutForRequest
            sessionConfiguration.timeoutIntervalForResource = configuration.timeoutForResource
            sessionConfiguration.urlCache = nil  // URLCache does not cache on Linux; Comet's DataCache does.
            sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
            // No cookie jar: what a load sends is what its request says, which the pipeline's keys
            // cover (a stored cookie would make equal requests send different things). This also
            // spares corelibs' parsing of every header line for cookies.
            sessionConfiguration.httpCookieAcceptPolicy = .never
            sessionConfiguration.httpShouldSetCookies = false
            sessionConfiguration.httpCookieStorage = nil
            let made = URLSession(
                configuration: sessionConfiguration, delegate: delegate,
                delegateQueue: SessionCallbackQueue())
            session = made
            return made
        }
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        guard let url = request.url, let scheme = url.scheme?.lowercased() else {
            completion(DataLoaderError.unsupportedURL(request.url))
            return CompletedLoadingTask()
        }
        switch scheme {
        case "http", "https":
            var request = request
            for (name, value) in configuration.additionalHeaders where request.value(forHTTPHeaderField: name) == nil {
                request.setValue(value, forHTTPHeaderField: name)
            }
            let load = URLSessionLoadingTask()
            let handlers = DataLoaderSessionDelegate.Handlers(didReceiveData: didReceiveData, completion: completion)
            let session = self.session  // made on first use, here
            // Asked from inside one of the session's delegate calls (a pipeline continuing on
            // URLSession's work queue), the task is made on a worker: see SessionCallbackQueue.
            SessionCallbackQueue.performOutside { [delegate, request] in
                guard !load.isCancelled else { return completion(URLError(.cancelled)) }
                let task = session.dataTask(with: request)
                delegate.register(task, handlers: handlers)
                guard load.attach(task) else {
                    // Cancelled while the task was being made: its completion reports it.
                    return task.cancel()
                }
                task.resume()
            }
            return load
        default:
            return LocalLoadingTask.load(
                url, scheme: scheme, configuration: configuration, didReceiveData: didReceiveData,
                completion: completion)
        }
    }
}
