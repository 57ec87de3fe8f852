import Comet
import CometAsyncHTTPClient
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's data loader in the service: fetches sources over http(s) with
/// AsyncHTTPClient (`AsyncHTTPClientDataLoader` from CometAsyncHTTPClient) under the
/// ``SourcePolicy`` and the ``SourceFetchLimits`` (bytes, redirects, time), and records each
/// source's validator.
///
/// - Every request, the first and each redirect's, is checked by the policy first (canonical
///   form, allow-list, addresses), and its connection goes to the address that check accepted
///   (`SourcePolicyResolver`): the name is resolved once per request, so DNS rebinding has no
///   window between the check and the connection.
/// - Only http and https sources are fetched.
/// - Failures reach the pipeline as errors it wraps in `ImagePipeline.Error.dataLoadingFailed`:
///   `DataLoaderError.statusCode` for an HTTP error status, `DataLoaderError.responseTooLarge`
///   past the byte limit, ``ServiceError`` for a refused source or too many redirects, and
///   `URLError` for network failures and timeouts.
///
/// Thread-safe. One per service (one `HTTPClient` and its connection pools, on SwiftNIO's
/// shared event loop group, which Hummingbird also runs on).
public final class SourceFetcher: DataLoading, Sendable {
    /// What may be fetched.
    public let policy: SourcePolicy
    /// What a fetch may cost.
    public let limits: SourceFetchLimits
    /// The validators sources answered with.
    public let validators: SourceValidatorCache
    private let loader: AsyncHTTPClientDataLoader

    /// Creates a fetcher with its own `HTTPClient`.
    public init(
        policy: SourcePolicy, limits: SourceFetchLimits, validators: SourceValidatorCache = SourceValidatorCache()
    ) {
        self.policy = policy
        self.limits = limits
        self.validators = validators
        var configuration = AsyncHTTPClientDataLoader.Configuration()
        configuration.timeoutForRequest = limits.timeout
        configuration.timeoutForResource = limits.timeout
        configuration.timeoutForConnect = min(10, limits.timeout)
        configuration.maximumResponseDataSize = limits.maximumBytes
        configuration.maximumRedirects = limits.maximumRedirects
        configuration.maximumConnectionsPerHost = 16
        configuration.allowsFileURLs = false
        configuration.hostResolver = SourcePolicyResolver(policy: policy)
        loader = AsyncHTTPClientDataLoader(configuration: configuration)
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        guard let url = request.url, ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            completion(ServiceError.sourceRefused("only http and https sources are fetched"))
            return FinishedFetch()
        }
        var request = request
        request.setValue("comet-server", forHTTPHeaderField: "User-Agent")
        let validators = validators
        let source = url.absoluteString
        let isFirstChunk = Atomic<Bool>(true)
        let maximumRedirects = limits.maximumRedirects
        return loader.loadData(
            with: request,
            didReceiveData: { data, response in
                if isFirstChunk.exchange(false, ordering: .relaxed), let http = response as? HTTPURLResponse {
                    validators.record(
                        http.value(forHTTPHeaderField: "ETag") ?? http.value(forHTTPHeaderField: "Last-Modified"),
                        for: source)
                }
                didReceiveData(data, response)
            },
            completion: { error in
                if let error = error as? URLError, error.code == .httpTooManyRedirects {
                    completion(ServiceError.sourceError("the source redirected more than \(maximumRedirects) times"))
                } else {
                    completion(error)
                }
            })
    }
}

/// A fetch refused before it started.
private struct FinishedFetch: DataLoadingTask {
    func cancel() {}
}
