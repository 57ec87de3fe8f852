import Foundation
import Locking
@testable import Comet

/// A ``ImagePipeline/RetryPolicy/sleep`` that never waits on a clock: it records each wait it
/// is asked for and returns at once, or, while ``isHolding``, until ``release()`` or until the
/// waiting task is cancelled (counted in ``cancellations``).
final class TestSleeper: Sendable {
    private struct State {
        var delays: [Duration] = []
        var isHolding: Bool
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextID = 0
        var cancellations = 0
    }

    private let state: Locked<State>

    init(holding: Bool = false) {
        state = Locked(State(isHolding: holding))
    }

    /// The waits asked for, in order.
    var delays: [Duration] { state.withLock { $0.delays } }
    /// Waits in progress.
    var waitingCount: Int { state.withLock { $0.waiting.count } }
    /// Waits that ended because their task was cancelled.
    var cancellations: Int { state.withLock { $0.cancellations } }

    /// A retry policy of `attempts` with no jitter that waits through this sleeper.
    func policy(attempts: Int = 3, initialDelay: Duration = .milliseconds(100), jitter: Double = 0)
        -> ImagePipeline.RetryPolicy
    {
        ImagePipeline.RetryPolicy(
            maximumAttempts: attempts, initialDelay: initialDelay, jitter: jitter,
            sleep: { [self] in try await self.sleep($0) })
    }

    /// Ends the waits in progress and stops holding later ones.
    func release() {
        let waiting = state.withLock { state in
            state.isHolding = false
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    func sleep(_ duration: Duration) async throws {
        let (holds, id) = state.withLock { state in
            state.delays.append(duration)
            state.nextID += 1
            return (state.isHolding, state.nextID)
        }
        guard holds else { return try Task.checkCancellation() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // 0: registered (released or cancelled later), 1: cancelled, 2: already released.
                let outcome = state.withLock { state -> Int in
                    if Task.isCancelled { return 1 }
                    if !state.isHolding { return 2 }
                    state.waiting[id] = continuation
                    return 0
                }
                if outcome == 1 { continuation.resume(throwing: CancellationError()) }
                if outcome == 2 { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                state.cancellations += 1
                return state.waiting.removeValue(forKey: id)
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
