import Locking
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Comet
import CometTestSupport

/// A test double for the data loader: counts loads and cancellations, and can hold loads
/// until ``resume()`` so tests can join, re-prioritise or cancel them deterministically.
final class MockDataLoader: DataLoading, Sendable {
    struct Load {
        let id: Int
        let request: URLRequest
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void
    }

    private struct State {
        var isSuspended = false
        var pending: [Load] = []
        var started: [URL] = []
        var cancelled = 0
        var nextId = 0
    }

    private let state = Locked(State())
    private let responses: @Sendable (URLRequest) -> Result<Data, any Error>

    /// Answers every request with `data`.
    convenience init(data: Data = TestImages.jpeg()) {
        self.init { _ in .success(data) }
    }

    init(responses: @escaping @Sendable (URLRequest) -> Result<Data, any Error>) {
        self.responses = responses
    }

    var isSuspended: Bool {
        get { state.withLock { $0.isSuspended } }
        set { state.withLock { $0.isSuspended = newValue } }
    }

    var loadCount: Int { state.withLock { $0.started.count } }
    var startedURLs: [URL] { state.withLock { $0.started } }
    var cancelCount: Int { state.withLock { $0.cancelled } }
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Lets every held load finish.
    func resume() {
        let loads = state.withLock { state in
            state.isSuspended = false
            defer { state.pending = [] }
            return state.pending
        }
        for load in loads { deliver(load) }
    }

    private func deliver(_ load: Load) {
        DispatchQueue.global().async { [responses] in
            switch responses(load.request) {
            case .success(let data):
                let response = URLResponse(url: load.request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil)
                load.didReceiveData(data, response)
                load.completion(nil)
            case .failure(let error):
                load.completion(error)
            }
        }
    }

    func loadData(with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
                  completion: @escaping @Sendable ((any Error)?) -> Void) -> any DataLoadingTask {
        let (load, hold) = state.withLock { state -> (Load, Bool) in
            state.nextId += 1
            state.started.append(request.url!)
            let load = Load(id: state.nextId, request: request, didReceiveData: didReceiveData, completion: completion)
            if state.isSuspended { state.pending.append(load) }
            return (load, state.isSuspended)
        }
        if !hold { deliver(load) }
        return MockTask(loader: self, id: load.id)
    }

    fileprivate func cancel(id: Int) {
        let load = state.withLock { state -> Load? in
            state.cancelled += 1
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return nil }
            return state.pending.remove(at: index)
        }
        load?.completion(URLError(.cancelled))
    }

    private struct MockTask: DataLoadingTask {
        let loader: MockDataLoader
        let id: Int
        func cancel() { loader.cancel(id: id) }
    }
}

/// A processor that counts its runs (and can fail), for coalescing tests.
final class CountingProcessor: ImageProcessing, @unchecked Sendable {
    let identifier: String
    private let runs = Locked(0)
    init(_ identifier: String) { self.identifier = identifier }
    var runCount: Int { runs.withLock { $0 } }
    func process(_ image: Image) throws -> Image {
        runs.withLock { $0 += 1 }
        return image
    }
}

extension ImagePipeline {
    /// A pipeline over `loader` with a private memory cache and no rate limiter (tests only).
    static func test(loader: any DataLoading, _ configure: (inout Configuration) -> Void = { _ in }) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = ImageCache()
            $0.isRateLimiterEnabled = false
            configure(&$0)
        }
    }
}
