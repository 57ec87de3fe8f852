import Foundation
import Locking
import Comet
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A data loader whose bytes depend on the URL's path and the `Authorization` header (a
/// different image for each), holding every load until ``open()`` so that concurrent requests
/// are in flight together. Counts the loads it started.
final class ModelDataLoader: DataLoading, Sendable {
    private struct State {
        var isOpen = false
        var held: [@Sendable () -> Void] = []
        var started = 0
    }

    private let state = Locked(State())

    init(holdsLoads: Bool = true) {
        state.withLock { $0.isOpen = !holdsLoads }
    }

    /// Loads started so far.
    var startedCount: Int { state.withLock { $0.started } }

    /// The bytes served for `path` to `user`: a distinct image for each pair.
    static func bytes(path: Int, user: String?) -> Data {
        let userIndex = ["alice": 1, "bob": 2][user ?? ""] ?? 0
        return TestImages.png(width: 16 + 3 * path + userIndex, height: 12)
    }

    /// Answers the held loads, and every later one at once.
    func open() {
        let held = state.withLock { state in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for answer in held { answer() }
    }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let url = request.url!
        let path = Int(url.deletingPathExtension().lastPathComponent) ?? 0
        let data = Self.bytes(path: path, user: request.value(forHTTPHeaderField: "Authorization"))
        let answer: @Sendable () -> Void = {
            didReceiveData(
                data, HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!)
            completion(nil)
        }
        let answersNow = state.withLock {
            $0.started += 1
            if !$0.isOpen { $0.held.append(answer) }
            return $0.isOpen
        }
        if answersNow { answer() }
        return NoTask()
    }

    private struct NoTask: DataLoadingTask {
        func cancel() {}
    }
}

/// A data loader that fails every load: what a pipeline then returns came from a cache.
struct FailingDataLoader: DataLoading {
    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        completion(URLError(.notConnectedToInternet))
        return NoTask()
    }

    private struct NoTask: DataLoadingTask {
        func cancel() {}
    }
}

/// An in-memory disk cache (the pipeline's `DataCaching`), shared by the pipelines of a test.
final class MemoryDataCache: DataCaching, Sendable {
    private let entries = Locked([String: Data]())

    var keys: Set<String> { entries.withLock { Set($0.keys) } }
    func cachedData(for key: String) -> Data? { entries.withLock { $0[key] } }
    func containsData(for key: String) -> Bool { entries.withLock { $0[key] != nil } }
    func storeData(_ data: Data, for key: String) { entries.withLock { $0[key] = data } }
    func removeData(for key: String) { entries.withLock { $0[key] = nil } }
    func removeAll() { entries.withLock { $0 = [:] } }
}
