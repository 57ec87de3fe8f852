import Locking

/// The origin's counters, shared by its middleware and the tests.
final class RequestCounts: Sendable {
    private let counts = Locked<[String: Int]>([:])
    func add(_ path: String) { counts.withLock { $0[path, default: 0] += 1 } }
    func count(_ path: String) -> Int { counts.withLock { $0[path] ?? 0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}
