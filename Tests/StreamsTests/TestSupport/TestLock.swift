import Foundation

/// A value behind an `NSLock`, for test support that several threads touch. (Not
/// `Synchronization.Mutex`: ThreadSanitizer cannot see its futex waits on Linux and would report
/// every guarded access as a race.)
final class TestLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
