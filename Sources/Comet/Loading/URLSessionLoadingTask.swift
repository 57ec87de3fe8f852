import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``DataLoader`` load over `URLSession`. Its task may be made after `loadData` returns (when
/// asked from inside one of the session's delegate calls, see ``SessionCallbackQueue``), so a
/// cancel can come first: the task is then never made and the load completes with
/// `URLError(.cancelled)` without one.
///
/// Thread-safe.
final class URLSessionLoadingTask: DataLoadingTask, Sendable {
    // URLSessionTask is thread-safe to cancel but not marked Sendable in corelibs-foundation:
    // it is only reached through the lock.
    private enum State {
        case waiting
        case started(URLSessionTask)
        case cancelled
    }

    private let state = Locked(State.waiting)

    /// Whether the load was cancelled before its task was made.
    var isCancelled: Bool {
        state.withLock { state in
            if case .cancelled = state { return true }
            return false
        }
    }

    /// Records the task made for this load; `false` if the load was cancelled first (the task is
    /// then left unstarted).
    func attach(_ task: URLSessionTask) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return false }
            state = .started(task)
            return true
        }
    }

    func cancel() {
        let started: URLSessionTask? = state.withLock { state in
            switch state {
            case .waiting:
                state = .cancelled
                return nil
            case .started(let task):
                return task
            case .cancelled:
                return nil
            }
        }
        guard let started else { return }
        SessionCallbackQueue.cancelOutside(started)
    }
}
