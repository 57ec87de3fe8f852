import Foundation

/// Issues ``CancellationToken``s and cancels them all at once.
///
/// `cancel()` is idempotent. Closures registered on its tokens run synchronously on the thread
/// that calls `cancel()`, once, and are then released; a closure registered after cancellation
/// runs at once on the registering thread. Thread-safe.
// Safe: `isCancelling` and `observers` are only touched under `lock`; observers run outside it.
public final class CancellationTokenSource: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelling = false
    private var observers: [() -> Void] = []

    /// `true` once ``cancel()`` was called.
    public private(set) var isCancelling: Bool {
        get { lock.locked { cancelling } }
        set { lock.locked { cancelling = newValue } }
    }

    /// A token observing this source.
    public var token: CancellationToken { CancellationToken(source: self) }

    /// Creates a source that is not cancelled.
    public init() {}

    /// Cancels every token of this source and runs their registered closures. Idempotent.
    public func cancel() {
        let toRun: [() -> Void]? = lock.locked {
            guard !cancelling else { return nil }
            cancelling = true
            defer { observers = [] }
            return observers
        }
        toRun?.forEach { $0() }
    }

    fileprivate func register(_ closure: @escaping () -> Void) {
        let runNow: Bool = lock.locked {
            if cancelling { return true }
            observers.append(closure)
            return false
        }
        if runNow { closure() }
    }
}

/// Lets work find out that it was cancelled: poll ``isCancelling`` or ``register(closure:)``.
///
/// A value you can pass to any thread.
public struct CancellationToken: Sendable {
    fileprivate let source: CancellationTokenSource

    /// `true` once the source was cancelled.
    public var isCancelling: Bool { source.isCancelling }

    /// Runs `closure` when the source is cancelled (synchronously on the cancelling thread), or
    /// at once on this thread if it already was.
    public func register(closure: @escaping () -> Void) {
        source.register(closure)
    }
}
