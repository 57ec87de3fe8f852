import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The delegate queue of ``DataLoader``'s `URLSession`: runs each delegate call at once, on the
/// thread that makes it (URLSession's own serial work queue), instead of as an operation on
/// another thread.
///
/// Why: swift-corelibs-foundation hands every 16 KB body chunk to the delegate queue as a
/// `BlockOperation`, so a default `OperationQueue` costs an allocation and a thread wake-up per
/// chunk (about 8 per 125 KB photo), and the pipeline then continues on that thread. Run inline,
/// a chunk reaches the pipeline on the thread that read it.
///
/// The rule that comes with it: URLSession's work queue must never be entered synchronously from
/// inside one of these calls (creating, resuming or cancelling a task, invalidating the session
/// all do `workQueue.sync`, which would deadlock). Code that may run inside a call — the loader's
/// delegate, its handlers and the pipeline work they trigger — goes through
/// ``performOutside(_:)`` for those operations, which defers them to a Dispatch worker when the
/// current thread is inside a call. Delegate calls stay in order: the work queue is serial.
///
/// Thread-safe.
final class SessionCallbackQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: OperationQueue is not Sendable in corelibs-foundation; this subclass adds no
    // state, and its one override only runs the block.

    override init() {
        super.init()
        name = "com.comet.DataLoader.callbacks"
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let wasInside = Self.isInsideCall
        Self.isInsideCall = true
        block()
        Self.isInsideCall = wasInside
    }

    /// Whether this thread is running a delegate call of a session that uses this queue.
    static var isInsideCall: Bool {
        get { pthread_getspecific(key) != nil }
        set { pthread_setspecific(key, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
    }

    /// Runs `work` now, or on a Dispatch worker when this thread is inside a delegate call
    /// (where entering URLSession synchronously would deadlock).
    static func performOutside(_ work: @escaping @Sendable () -> Void) {
        if isInsideCall {
            DispatchQueue.global(qos: .userInitiated).async(execute: work)
        } else {
            work()
        }
    }

    /// Cancels `task`, from a worker when this thread is inside a delegate call.
    static func cancelOutside(_ task: URLSessionTask) {
        performOutside { task.cancel() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
