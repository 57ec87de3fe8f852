import Foundation

/// Collects values from callbacks on any thread; tests read it from theirs.
// Safe: `values` is only touched under `lock`.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    var count: Int { all.count }
    var last: Value? { all.last }
}

/// Waits a little while, for checks that something does *not* happen.
func pause(milliseconds: Int) async {
    try? await Task.sleep(for: .milliseconds(milliseconds))
}
