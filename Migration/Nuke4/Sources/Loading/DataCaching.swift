import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A cache of URL responses (data and response) that ``CachingDataLoader`` consults first.
public protocol DataCaching {
    /// The cached response for `request`; reject the promise when there is none.
    func response(for request: URLRequest, token: CancellationToken?) -> Promise<CachedURLResponse>
    /// Stores `response` for `request`.
    func setResponse(_ response: CachedURLResponse, for request: URLRequest)
}
