#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock: the one lock type of Comet's modules, its command-line tool, the
/// Server and loader packages, and the tests. Its target is a library product only so that those
/// packages can share it; it is not part of the API adopters are meant to use.
///
/// `withLock` gives exclusive access to the value. Never call out to other components (user
/// closures, subscribers, loaders, callbacks) inside it: take what you need out of the value and
/// call after the lock is released.
///
/// Built on `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux, `Mutex` waits with
/// raw futex calls that ThreadSanitizer cannot see, so every access it guards is reported as a
/// race and `--sanitize=thread` becomes useless (a two-thread counter under `Mutex` gives
/// "Swift access race" reports, under a pthread mutex none). A struct around one class
/// (the value and the mutex in one allocation) so that `withLock` inlines into callers in other
/// modules.
///
/// Sendable: the value is only read or written inside `withLock`, under the mutex.
public struct Locked<Value>: @unchecked Sendable {
    /// The value and its mutex in one allocation (the value is the header, the mutex the one
    /// element: a mutex must not move, and a class instance never does).
    @usableFromInline
    final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        @usableFromInline
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                #if canImport(Glibc)
                    // Adaptive: a contended lock spins briefly before sleeping in the kernel. Every
                    // Comet lock is held for a few instructions, so a waiter usually gets it within
                    // the spin instead of paying a futex sleep and wake-up.
                    var attributes = pthread_mutexattr_t()
                    pthread_mutexattr_init(&attributes)
                    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
                    _ = pthread_mutex_init(mutex, &attributes)
                    pthread_mutexattr_destroy(&attributes)
                #else
                    _ = pthread_mutex_init(mutex, nil)
                #endif
            }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                _ = mutex.deinitialize(count: 1)
            }
        }
    }

    @usableFromInline let storage: Storage

    /// Creates the lock around `value`.
    @inlinable
    public init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try storage.withUnsafeMutablePointers { (value, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
