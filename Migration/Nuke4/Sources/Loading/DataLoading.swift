import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads the bytes of a request.
public protocol DataLoading {
    /// Loads `request`; cancelling `token` cancels the load (the promise is then rejected or
    /// stays pending, see ``DataLoader``).
    func loadData(with request: URLRequest, token: CancellationToken?) -> Promise<(Data, URLResponse)>
}
