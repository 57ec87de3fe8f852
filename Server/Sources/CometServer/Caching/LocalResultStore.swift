import Locking

/// The in-process ``SharedResultStoring``: results in memory, least recently used evicted past
/// ``costLimit`` bytes, each kept for its TTL; concurrent requests for one key wait for the
/// first one's result instead of making it again.
///
/// A waiter whose producer was cancelled (its client went away) tries again, becoming the
/// producer itself; other failures are passed to every waiter. Thread-safe (a mutex; nothing
/// runs under it but bookkeeping).
public final class LocalResultStore: SharedResultStoring {
    private struct Entry {
        var result: StoredResult
        var expiry: ContinuousClock.Instant
        var lastUse: UInt64
    }

    private final class Flight: Sendable {
        let waiters = Locked<[CheckedContinuation<Result<StoredResult, any Error>, Never>]>([])
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var cost = 0
        var tick: UInt64 = 0
        var flights: [String: Flight] = [:]
    }

    private let state = Locked(State())
    /// The most bytes of results kept. Default 256 MiB.
    public let costLimit: Int

    /// Creates an empty store.
    public init(costLimit: Int = 256 << 20) {
        self.costLimit = costLimit
    }

    /// The number of results stored.
    public var count: Int { state.withLock { $0.entries.count } }

    public func result(for key: String, ttl: Duration, produce: @Sendable () async throws -> StoredResult) async throws -> StoredResult {
        while true {
            enum Step { case hit(StoredResult), wait(Flight), produce(Flight) }
            let now = ContinuousClock.now
            let step: Step = state.withLock { state in
                if let entry = state.entries[key] {
                    if entry.expiry > now {
                        state.tick += 1
                        state.entries[key]?.lastUse = state.tick
                        return .hit(entry.result)
                    }
                    state.cost -= entry.result.bytes.count
                    state.entries[key] = nil
                }
                if let flight = state.flights[key] { return .wait(flight) }
                let flight = Flight()
                state.flights[key] = flight
                return .produce(flight)
            }
            switch step {
            case .hit(let result):
                return result
            case .wait(let flight):
                let outcome = await withCheckedContinuation { continuation in
                    // The producer may have finished between the two locks: then it is gone from
                    // `flights` and its waiters were resumed, so look again instead of waiting.
                    let stillRunning = state.withLock { state in
                        guard state.flights[key] === flight else { return false }
                        flight.waiters.withLock { $0.append(continuation) }
                        return true
                    }
                    if !stillRunning { continuation.resume(returning: .failure(CancellationError())) }
                }
                switch outcome {
                case .success(let result): return result
                case .failure(let error) where error is CancellationError: continue
                case .failure(let error): throw error
                }
            case .produce(let flight):
                let outcome: Result<StoredResult, any Error>
                do {
                    outcome = .success(try await produce())
                } catch {
                    outcome = .failure(error)
                }
                let waiters = state.withLock { state in
                    state.flights[key] = nil
                    if case .success(let result) = outcome { insert(result, for: key, ttl: ttl, into: &state) }
                    return flight.waiters.withLock { waiters in
                        defer { waiters.removeAll() }
                        return waiters
                    }
                }
                for waiter in waiters { waiter.resume(returning: outcome) }
                return try outcome.get()
            }
        }
    }

    private func insert(_ result: StoredResult, for key: String, ttl: Duration, into state: inout State) {
        guard result.bytes.count <= costLimit else { return }
        state.tick += 1
        if let old = state.entries[key] { state.cost -= old.result.bytes.count }
        state.entries[key] = Entry(result: result, expiry: ContinuousClock.now + ttl, lastUse: state.tick)
        state.cost += result.bytes.count
        guard state.cost > costLimit else { return }
        // Evict the least recently used quarter (at least enough to fit): one sort per
        // eviction round instead of one scan per entry.
        let target = costLimit * 3 / 4
        for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard state.cost > target else { break }
            state.entries[key] = nil
            state.cost -= entry.result.bytes.count
        }
    }
}
