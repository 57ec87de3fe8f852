#if canImport(Glibc)
import Glibc
#endif

/// A value behind a lock: `withLock` gives exclusive access to it.
///
/// Built on `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux, `Mutex` waits with
/// raw futex calls that ThreadSanitizer cannot see, so every access it guards is reported as a
/// race and `--sanitize=thread` becomes useless (measured: a two-thread counter under `Mutex`
/// gives "Swift access race" reports, under a pthread lock none). The cost is a few nanoseconds
/// more per uncontended lock, and one allocation per lock.
///
/// Never call out to other components (callbacks, loaders, subscribers) inside `withLock`.
final class Locked<Value>: @unchecked Sendable {
    // Sendable: `value` is only touched inside withLock, under the mutex.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
