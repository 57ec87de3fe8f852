import Foundation

/// Issues ``CancellationToken``s and cancels them all at once.
///
/// `cancel()` is idempotent. Closures registered on its tokens run synchronously on the thread
/// that calls `cancel()`, once, in the order they were registered, and are then released; a
/// closure registered after cancellation runs at once on the registering thread. Thread-safe.
public final class CancellationTokenSource: Sendable {
    private struct State {
        var cancelling = false
        var observers: [(id: Int, closure: () -> Void)] = []
        var nextID = 0
    }

    // Observers run outside the lock.
    private let state = LockedValue(State())

    /// `true` once ``cancel()`` was called.
    public var isCancelling: Bool { state.withLock { $0.cancelling } }

    /// A token observing this source.
    public var token: CancellationToken { CancellationToken(source: self) }

    /// Creates a source that is not cancelled.
    public init() {}

    /// Cancels every token of this source and runs their registered closures. Idempotent.
    public func cancel() {
        let toRun: [(id: Int, closure: () -> Void)]? = state.withLock { state in
            guard !state.cancelling else { return nil }
            state.cancelling = true
            defer { state.observers = [] }
            return state.observers
        }
        toRun?.forEach { $0.closure() }
    }

    /// Registers `closure`; returns its id, or `nil` when it already ran (the source was
    /// cancelled).
    func register(_ closure: @escaping () -> Void) -> Int? {
        let id: Int? = state.withLock { state in
            if state.cancelling { return nil }
            state.nextID += 1
            state.observers.append((state.nextID, closure))
            return state.nextID
        }
        if id == nil { closure() }
        return id
    }

    /// Releases a registered closure that must no longer run (no-op once cancelled).
    func unregister(_ id: Int) {
        let removed: (() -> Void)? = state.withLock { state in
            guard let index = state.observers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.observers.remove(at: index).closure
        }
        // The closure (and whatever it captured) is released here, outside the lock.
        _ = removed
    }
}

/// Lets work find out that it was cancelled: poll ``isCancelling`` or ``register(closure:)``.
///
/// A value you can pass to any thread.
public struct CancellationToken: Sendable {
    let source: CancellationTokenSource

    /// `true` once the source was cancelled.
    public var isCancelling: Bool { source.isCancelling }

    /// Runs `closure` when the source is cancelled (synchronously on the cancelling thread), or
    /// at once on this thread if it already was. The closure is kept until then: a source that
    /// is never cancelled keeps it (and what it captures) as long as the source lives.
    public func register(closure: @escaping () -> Void) {
        _ = source.register(closure)
    }
}
