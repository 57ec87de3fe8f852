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

/// A mutable value behind an NSLock: the module's settings and shared instances.
// Safe: every read and write of `value` goes through `lock`.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    var current: Value {
        get { lock.locked { value } }
        set { lock.locked { value = newValue } }
    }
}
