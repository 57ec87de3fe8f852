#if canImport(Glibc)
import Glibc
#endif

/// State that is not `Sendable` (downstream subscribers, values, closures) behind a lock.
///
/// Every owner of a `Locked` is a class documented `@unchecked Sendable`: the state is only read
/// or written inside ``withLock(_:)``, and values taken out of it are handed to a single thread
/// (the lock is never held while calling other code). That invariant, not the type system, is
/// what makes the unchecked wrapper sound.
///
/// Built on `pthread_mutex_t` rather than `Synchronization.Mutex`: on Linux, `Mutex` waits with
/// futex calls that ThreadSanitizer cannot see, which turns every guarded access into a reported
/// race and makes `--sanitize=thread` useless.
@usableFromInline
struct Locked<State>: @unchecked Sendable {
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
        @usableFromInline var state: State

        @usableFromInline
        init(_ state: State) {
            self.state = state
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

    @inlinable
    init(_ state: State) {
        storage = Storage(state)
    }

    /// Runs `body` with exclusive access to the state. Never call out to other components
    /// (subscribers, subscriptions, user closures) from inside `body`.
    @inlinable
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return body(&storage.state)
    }
}
