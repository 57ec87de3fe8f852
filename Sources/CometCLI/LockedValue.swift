import Foundation

/// A value behind an `NSLock` (a pthread mutex, which ThreadSanitizer understands; the
/// futex-based `Synchronization.Mutex` is invisible to it on Linux, as the pipeline found).
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box.
    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
