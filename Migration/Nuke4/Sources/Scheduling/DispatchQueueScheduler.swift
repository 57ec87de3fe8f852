import Foundation

/// Runs work asynchronously on a dispatch queue; work whose token was cancelled before it
/// starts is skipped.
public final class DispatchQueueScheduler: Scheduler {
    /// The queue work runs on.
    public let queue: DispatchQueue

    /// Creates a scheduler for `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Runs `closure` on the queue unless `token` is cancelled by then.
    public func execute(token: CancellationToken?, closure: @escaping () -> Void) {
        guard token?.isCancelling != true else { return }
        let work = Unchecked(closure)
        queue.async {
            guard token?.isCancelling != true else { return }
            work.value()
        }
    }
}
