import Foundation

/// Carries a value or closure of the legacy API across a queue hop.
///
/// Nuke 4 predates Swift concurrency: its promises, requests and callbacks move between the
/// caller's thread, the library's queues and the callback queue without any `Sendable`
/// annotations, and legacy code must keep compiling unchanged, so the shim cannot demand
/// `Sendable` closures or values from it.
// Safe under the legacy contract, not by the type system: every boxed value is handed from one
// queue to the next and used there (never by two threads at once by the shim itself); a
// closure runs on the queue its caller named, as in Nuke 4. Shim state of its own is always
// behind an NSLock.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension NSLock {
    /// Runs `body` with the lock held. Never call out to user code from `body`.
    @inline(__always)
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value behind an NSLock: the shim's own state (each class keeps its fields in one
/// `LockedValue`, so the compiler checks that the class is `Sendable`) and its settings.
///
/// `withLock` gives exclusive access. Never call out to user code or another component inside it.
// Safe: every read and write of `value` goes through `lock`. The shim's one lock type (the
// package's `Locked` is not a dependency of the shims, which use only Comet's API; Mutex's
// futex waits are invisible to ThreadSanitizer on Linux).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }

    /// The value (a copy, read under the lock); setting it replaces it under the lock.
    var current: Value {
        get { lock.locked { value } }
        set { lock.locked { value = newValue } }
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.locked { try body(&value) }
    }
}
