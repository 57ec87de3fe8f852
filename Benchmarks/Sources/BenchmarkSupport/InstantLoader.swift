import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loader that answers at once, on the caller's thread, with fixed bytes (a no-op loader):
/// figures made with it measure the pipeline's own cost. Counts the loads it served.
public final class InstantLoader: DataLoading, @unchecked Sendable {
    // Sendable: `data` is immutable; `loads` is only touched under `lock`.
    private let data: Data
    private let lock = NSLock()
    private var loads = 0

    public init(data: Data) { self.data = data }

    /// How many loads were started.
    public var loadCount: Int { lock.withLock { loads } }

    public func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        lock.withLock { loads += 1 }
        didReceiveData(
            data,
            URLResponse(url: request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil))
        completion(nil)
        return NoTask()
    }

    struct NoTask: DataLoadingTask { func cancel() {} }
}
