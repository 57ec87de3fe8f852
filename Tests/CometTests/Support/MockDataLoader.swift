import Locking
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import Comet
import CometTestSupport
import Testing

/// A test double for the data loader: counts loads and cancellations, and can hold loads
/// until ``resume()`` so tests can join, re-prioritise or cancel them deterministically. Tests
/// wait for loads and cancellations on the loader itself (``waitForLoads(_:within:)``,
/// ``holdingLoads(_:sourceLocation:whileStarting:)``): it resumes them when they arrive.
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
        var waiters: [Waiter] = []
        var expiredWaiters: Set<Int> = []

        /// Removes and returns the waiters whose condition now holds.
        mutating func satisfiedWaiters() -> [Waiter] {
            let state = self
            var ready: [Waiter] = [], waiting: [Waiter] = []
            for waiter in waiters {
                if waiter.condition(state) { ready.append(waiter) } else { waiting.append(waiter) }
            }
            waiters = waiting
            return ready
        }
    }

    /// A test waiting for a condition on the loader's counts.
    private struct Waiter {
        let id: Int
        let condition: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
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

    /// Holds every load, runs `start` (which starts the test's tasks), and waits until exactly
    /// `loads` loads have reached the loader; they stay held until ``resume()``. Records an issue
    /// when they do not arrive. Returns what `start` returned.
    func holdingLoads<T>(
        _ loads: Int = 1, sourceLocation: SourceLocation = #_sourceLocation,
        whileStarting start: () throws -> T
    ) async rethrows -> T {
        isSuspended = true
        let started = try start()
        let arrived = await waitForLoads(loads)
        if !arrived || loadCount != loads {
            Issue.record("expected \(loads) held load(s), found \(loadCount)", sourceLocation: sourceLocation)
        }
        return started
    }

    /// Waits until `loads` loads have reached the loader, at most `seconds`; returns whether
    /// they did. The loader resumes the wait when the load arrives: nothing polls.
    func waitForLoads(_ loads: Int, within seconds: Double = 120) async -> Bool {
        await wait(within: seconds) { $0.started.count >= loads }
    }

    /// Waits until `count` loads have been cancelled, at most `seconds`; returns whether they were.
    func waitForCancellations(_ count: Int, within seconds: Double = 120) async -> Bool {
        await wait(within: seconds) { $0.cancelled >= count }
    }

    private func wait(within seconds: Double, until condition: @escaping @Sendable (State) -> Bool) async -> Bool {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        let timeout = Task { [weak self] in
            guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
            self?.expireWaiter(id)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { continuation in
            let outcome = state.withLock { state -> Bool? in
                if condition(state) { return true }
                if state.expiredWaiters.remove(id) != nil { return false }
                state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    private func expireWaiter(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.expiredWaiters.insert(id)
                return nil
            }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }

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
                let response = URLResponse(
                    url: load.request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil)
                load.didReceiveData(data, response)
                load.completion(nil)
            case .failure(let error):
                load.completion(error)
            }
        }
    }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let (load, hold, ready) = state.withLock { state -> (Load, Bool, [Waiter]) in
            state.nextId += 1
            state.started.append(request.url!)
            let load = Load(id: state.nextId, request: request, didReceiveData: didReceiveData, completion: completion)
            if state.isSuspended { state.pending.append(load) }
            return (load, state.isSuspended, state.satisfiedWaiters())
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
        if !hold { deliver(load) }
        return MockTask(loader: self, id: load.id)
    }

    fileprivate func cancel(id: Int) {
        let (load, ready) = state.withLock { state -> (Load?, [Waiter]) in
            state.cancelled += 1
            let ready = state.satisfiedWaiters()
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return (nil, ready) }
            return (state.pending.remove(at: index), ready)
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
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
