import Comet
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pipeline's data loader in the service: fetches sources over http(s) under the
/// ``SourcePolicy`` (checked before the first request and for every redirect target) and the
/// ``SourceFetchLimits`` (bytes, redirects, time), and records each source's validator.
///
/// Failures reach the pipeline as errors it wraps in `ImagePipeline.Error.dataLoadingFailed`:
/// `DataLoaderError.statusCode` for an HTTP error status, `DataLoaderError.responseTooLarge`
/// past the byte limit, ``ServiceError`` for a refused source or too many redirects, and
/// URLSession's `URLError` for network failures and timeouts.
///
/// Thread-safe. One per service (one `URLSession`).
public final class SourceFetcher: DataLoading, Sendable {
    /// What may be fetched.
    public let policy: SourcePolicy
    /// What a fetch may cost.
    public let limits: SourceFetchLimits
    /// The validators sources answered with.
    public let validators: SourceValidators
    private let session: URLSession
    private let delegate: SourceFetcherDelegate

    /// Creates a fetcher with its own `URLSession`.
    public init(policy: SourcePolicy, limits: SourceFetchLimits, validators: SourceValidators = SourceValidators()) {
        self.policy = policy
        self.limits = limits
        self.validators = validators
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.timeout
        configuration.timeoutIntervalForResource = limits.timeout
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        let delegate = SourceFetcherDelegate(policy: policy, limits: limits, validators: validators)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "com.comet.server.SourceFetcher"
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let fetch = SourceFetchTask()
        guard let url = request.url else {
            completion(ServiceError.badURL("the source has no URL"))
            return fetch
        }
        var request = request
        request.setValue("comet-server", forHTTPHeaderField: "User-Agent")
        let session = session
        let delegate = delegate
        let policy = policy
        // The first request is checked as every redirect is: made canonical, resolved, every
        // address classed; then the canonical URL is what is fetched.
        Task {
            var request = request
            do {
                request.url = try await policy.check(url)
            } catch {
                completion(error)
                return
            }
            let task = session.dataTask(with: request)
            delegate.register(task, handlers: .init(didReceiveData: didReceiveData, completion: completion))
            guard fetch.attach(task) else {
                delegate.unregister(task)
                completion(URLError(.cancelled))
                return
            }
            task.resume()
        }
        return fetch
    }
}
