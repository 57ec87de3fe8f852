import Foundation
import Locking
@testable import Comet

/// An in-memory `DataCaching` whose reads wait until ``open()`` (at most 10 s), so a test can
/// start requests while a disk-cache read is in flight. Records the keys written.
final class GatedDataCache: DataCaching, Sendable {
    private struct State {
        var entries: [String: Data] = [:]
        var isOpen = false
        var readsStarted = 0
    }

    private let state = Locked(State())
    private let gate = DispatchSemaphore(value: 0)

    /// Reads that have started (waiting at the gate or done).
    var readsStarted: Int { state.withLock { $0.readsStarted } }
    /// The keys with data stored.
    var keys: Set<String> { state.withLock { Set($0.entries.keys) } }

    /// Lets every waiting and later read through.
    func open() {
        let waiting: Int = state.withLock {
            guard !$0.isOpen else { return 0 }
            $0.isOpen = true
            return $0.readsStarted
        }
        for _ in 0..<waiting { gate.signal() }
    }

    func cachedData(for key: String) -> Data? {
        let mustWait: Bool = state.withLock {
            $0.readsStarted += 1
            return !$0.isOpen
        }
        if mustWait { _ = gate.wait(timeout: .now() + 10) }
        return state.withLock { $0.entries[key] }
    }

    func containsData(for key: String) -> Bool { state.withLock { $0.entries[key] != nil } }
    func storeData(_ data: Data, for key: String) { state.withLock { $0.entries[key] = data } }
    func removeData(for key: String) { state.withLock { $0.entries[key] = nil } }
    func removeAll() { state.withLock { $0.entries = [:] } }
}
