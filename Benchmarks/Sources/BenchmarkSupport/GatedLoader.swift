import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loader that holds every load until ``open()``, then answers each with fixed bytes: lets a
/// benchmark submit many equal requests while the first download is still in flight, so the
/// counts show coalescing rather than how fast an instant load finishes.
public final class GatedLoader: DataLoading, @unchecked Sendable {
    // Sendable: `data` is immutable; `isOpen`, `held` and `loads` are only touched under `lock`,
    // and the held callbacks run after the lock is released.
    private let data: Data
    private let lock = NSLock()
    private var isOpen = false
    private var held: [@Sendable () -> Void] = []
    private var loads = 0

    public init(data: Data) { self.data = data }

    /// How many loads were started.
    public var loadCount: Int { lock.withLock { loads } }

    /// Answers the held loads and every later one at once.
    public func open() {
        let waiting = lock.withLock { () -> [@Sendable () -> Void] in
            isOpen = true
            defer { held = [] }
            return held
        }
        for answer in waiting { answer() }
    }

    public func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let data = self.data
        let answer: @Sendable () -> Void = {
            didReceiveData(
                data,
                URLResponse(url: request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil))
            completion(nil)
        }
        let runNow = lock.withLock { () -> Bool in
            loads += 1
            if !isOpen { held.append(answer) }
            return isOpen
        }
        if runNow { answer() }
        return InstantLoader.NoTask()
    }
}
