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
    ///
    /// When a response's body is empty (a 200 or 204 with no bytes), `didReceiveData` is called
    /// once with an empty `Data` and the response, before `completion(nil)`: whoever needs the
    /// response gets it whatever the body's length. A load that fails (a transport error, a
    /// refused status) has no response to deliver and ends with `completion(error)` alone.
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
