import Foundation

/// A value behind an NSLock: the shim's own state. Each class keeps its mutable fields in one
/// `LockedValue`, so the compiler checks that the class is `Sendable`.
///
/// `withLock` gives exclusive access. Never call out to user code or another component inside it.
// @unchecked: every read and write of `value` goes through `lock`. The shim's one lock type (the
// package's `Locked` is not a dependency of the shims, which use only Comet's API; Mutex's futex
// waits are invisible to ThreadSanitizer on Linux).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
