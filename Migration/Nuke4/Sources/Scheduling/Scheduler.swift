import Foundation

/// Runs synchronous work somewhere (a queue), unless its token is cancelled first.
public protocol Scheduler {
    /// Runs `closure` later; never runs it when `token` is cancelled before it starts.
    func execute(token: CancellationToken?, closure: @escaping () -> Void)
}

/// Runs asynchronous work, which calls `finish` when it is done (so a scheduler can limit how
/// many run at once), unless its token is cancelled first.
public protocol AsyncScheduler {
    /// Runs `closure` later; never runs it when `token` is cancelled before it starts.
    func execute(token: CancellationToken?, closure: @escaping (_ finish: @escaping () -> Void) -> Void)
}
