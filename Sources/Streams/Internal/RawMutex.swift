#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex locked and unlocked explicitly, for per-value paths that keep their state in
/// their owner's stored properties instead of behind `Locked`.
///
/// `Locked.withLock` takes a closure whose result type is generic; in code that runs
/// unspecialised (a generic operator's inner class seen from another module) every such call
/// instantiates generic metadata at run time, which cost more than the delivery itself. A plain
/// `lock()`/`unlock()` pair has no generic result. A pthread mutex (not a futex-based `Mutex`)
/// so that ThreadSanitizer sees the synchronisation.
///
/// The mutex lives in its own allocation (it must not move); the owner calls ``destroy()`` once,
/// from its `deinit`. Never call out to other components while holding it.
@usableFromInline
struct RawMutex: @unchecked Sendable {
    // @unchecked Sendable: a pthread mutex is made to be shared; `pointer` never changes.
    @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        _ = pthread_mutex_init(pointer, nil)
    }

    @inlinable @inline(__always)
    func lock() {
        _ = pthread_mutex_lock(pointer)
    }

    @inlinable @inline(__always)
    func unlock() {
        _ = pthread_mutex_unlock(pointer)
    }

    /// Frees the mutex; call once, when no thread can use it any more.
    @inlinable
    func destroy() {
        _ = pthread_mutex_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
