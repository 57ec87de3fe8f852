import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One load of ``HTTPCachingDataLoader``: answered from the cache or by the inner loader's task,
/// which it cancels. Ends exactly once; after ``cancel()`` it ends with `URLError(.cancelled)`.
///
/// Thread-safe: its phase sits behind a lock, and callbacks are made outside it.
final class HTTPCachingLoadTask: DataLoadingTask, Sendable {
    private enum Phase {
        /// Reading the cache, or about to start the inner load.
        case waiting
        case loading(any DataLoadingTask)
        case finished
    }

    private struct State {
        var phase = Phase.waiting
        var isCancelled = false
    }

    let didReceiveData: @Sendable (Data, URLResponse) -> Void
    private let completion: @Sendable ((any Error)?) -> Void
    private let state = Locked(State())

    init(
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.didReceiveData = didReceiveData
        self.completion = completion
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func cancel() {
        let inner: (any DataLoadingTask)? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            if case .loading(let inner) = state.phase { return inner }
            return nil
        }
        inner?.cancel()
    }

    /// The inner loader's task: cancelled at once if this task already was.
    func attach(_ inner: any DataLoadingTask) {
        let cancelNow = state.withLock { state -> Bool in
            guard case .waiting = state.phase else { return false }
            state.phase = .loading(inner)
            return state.isCancelled
        }
        if cancelNow { inner.cancel() }
    }

    /// Delivers a stored entry as the whole answer (its body as one chunk, even when empty).
    func deliver(_ entry: HTTPCacheEntry) {
        guard let response = entry.response else { return finish(URLError(.cannotParseResponse)) }
        let proceed = state.withLock { state -> Bool in
            if case .finished = state.phase { return false }
            return !state.isCancelled
        }
        if proceed { didReceiveData(entry.body, response) }
        finish(nil)
    }

    /// Ends the load (the first call only).
    @Sendable func finish(_ error: (any Error)?) {
        let wasCancelled = state.withLock { state -> Bool? in
            if case .finished = state.phase { return nil }
            state.phase = .finished
            return state.isCancelled
        }
        guard let wasCancelled else { return }
        completion(wasCancelled ? URLError(.cancelled) : error)
    }
}
