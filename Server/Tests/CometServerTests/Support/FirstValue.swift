import Foundation

/// The first value of `stream`, or a thrown ``TimedOut`` after `limit`: no test waits forever.
func firstValue<T: Sendable>(of stream: AsyncStream<T>, within limit: Duration) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            for await value in stream { return value }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut(limit: limit) }
        return value
    }
}

/// A wait that took longer than its limit.
struct TimedOut: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "timed out after \(limit)" }
}
