import Comet
import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fetch of ``SourceFetcher``: cancellable before its URLSession task exists (while the
/// source is being checked) and after.
final class SourceFetchTask: DataLoadingTask, Sendable {
    private struct State {
        var isCancelled = false
        // URLSessionTask is thread-safe to cancel; corelibs-foundation does not mark it Sendable.
        nonisolated(unsafe) var task: URLSessionTask?
    }
    private let state = Locked(State())

    /// Attaches the session task; `false` (and the task is not to be started) when the fetch
    /// was cancelled already.
    func attach(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.task = task
            return true
        }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func cancel() {
        let task: URLSessionTask? = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }
}
