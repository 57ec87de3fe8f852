import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads the bytes of a request: the pipeline's only way to reach the network or the disk.
///
/// Plug in your own (AsyncHTTPClient, a test double) through
/// ``ImagePipeline/Configuration/dataLoader``. Implementations must be thread-safe; callbacks may
/// come on any thread, but never after `completion`, and `completion` is called exactly once
/// (also after ``DataLoadingTask/cancel()``, with an error).
public protocol DataLoading: Sendable {
    /// Starts loading. `didReceiveData` gets each chunk as it arrives with the response it
    /// belongs to; `completion` ends the load (`nil` on success).
    func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask

    /// Starts loading, with the body delivered to `didReceiveData` as `delivery` asks (the
    /// pipeline calls this one). A default implementation calls
    /// ``loadData(with:didReceiveData:completion:)``, delivering every chunk.
    func loadData(
        with request: URLRequest,
        delivery: DataDelivery,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask
}

/// A load in progress.
public protocol DataLoadingTask: Sendable {
    /// Stops the load; its completion then reports a cancellation error. Idempotent.
    func cancel()
}
