#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: the one lock type of Comet's modules, its command-line tool and its
/// tests. Its target is not a product: no user imports it.
///
/// `withLock` gives exclusive access to the value. Never call out to other components (user
/// closures, subscribers, loaders, callbacks) inside it: take what you need out of the value and
/// call after the lock is released.
///
/// Built on `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux, `Mutex` waits with
/// raw futex calls that ThreadSanitizer cannot see, so every access it guards is reported as a
/// race and `--sanitize=thread` becomes useless (measured: a two-thread counter under `Mutex`
/// gives "Swift access race" reports, under a pthread mutex none). A struct around one class so
/// that `withLock` inlines into callers in other modules.
///
/// Sendable: the value is only read or written inside `withLock`, under the mutex.
public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
        @usableFromInline var value: Value

        @usableFromInline
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
    }

    @usableFromInline let storage: Storage

    /// Creates the lock around `value`.
    @inlinable
    public init(_ value: Value) {
        storage = Storage(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return try body(&storage.value)
    }
}
