import Locking

/// The in-process ``SharedResultStoring``: results in memory, least recently used evicted past
/// ``costLimit`` bytes (counting what each entry really holds: its buffer as allocated, its
/// strings and its bookkeeping), each kept for its TTL; concurrent requests for one key share one making
/// of it instead of making it again.
///
/// The making runs in a task of its own, which every caller for the key awaits. A caller that
/// is cancelled (its client went away) stops waiting at once; the making is cancelled only when
/// no caller is left waiting for it, so one client's disconnect never fails another's request.
/// Errors are passed to every caller and not stored. Thread-safe (a mutex; nothing runs under
/// it but bookkeeping, and task creation and cancellation).
public final class LocalResultStore: SharedResultStoring {
    private struct Entry {
        var result: StoredResult
        var expiry: ContinuousClock.Instant
        var lastUse: UInt64
        /// What the entry holds in memory (see ``LocalResultStore/cost(of:key:)``).
        var cost: Int
    }

    /// One making of a result, with the number of callers waiting for it. A caller names its
    /// flight by key and `id`: a key's flight may be retired and another started meanwhile.
    private struct Flight {
        let id: UInt64
        let work: Task<StoredResult, any Error>
        var waiting = 1
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var cost = 0
        var tick: UInt64 = 0
        var flights: [String: Flight] = [:]
        var lastFlightID: UInt64 = 0
    }

    private let state = Locked(State())
    /// The most bytes of results kept. Default 32 MiB (a thousand or more thumbnails).
    public let costLimit: Int

    /// Creates an empty store.
    public init(costLimit: Int = 32 << 20) {
        self.costLimit = costLimit
    }

    /// The number of results stored.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Makings in flight (for tests and diagnostics).
    public var flightCount: Int { state.withLock { $0.flights.count } }

    /// Callers waiting for a making, all keys together (for tests and diagnostics).
    public var waitingCount: Int { state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiting } } }

    public func storedResult(for key: String) -> StoredResult? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.tick += 1
            let tick = state.tick
            return Self.use(&state.entries.values[index], at: tick, ifFreshAt: now)
        }
    }

    /// The entry's result, marked used at `tick`, when it has not expired at `now`. Through
    /// `inout`, so the entry is read in place rather than copied for each field.
    private static func use(_ entry: inout Entry, at tick: UInt64, ifFreshAt now: ContinuousClock.Instant)
        -> StoredResult?
    {
        guard entry.expiry > now else { return nil }
        entry.lastUse = tick
        return entry.result
    }

    public func result(
        for key: String, ttl: Duration,
        produce: @escaping @Sendable () async throws -> StoredResult
    ) async throws -> StoredResult {
        enum Step { case hit(StoredResult), wait(id: UInt64, work: Task<StoredResult, any Error>) }
        let now = ContinuousClock.now
        let step: Step = state.withLock { state in
            if let entry = state.entries[key] {
                if entry.expiry > now {
                    state.tick += 1
                    state.entries[key]?.lastUse = state.tick
                    return .hit(entry.result)
                }
                state.cost -= entry.cost
                state.entries[key] = nil
            }
            if let flight = state.flights[key] {
                state.flights[key]!.waiting += 1
                return .wait(id: flight.id, work: flight.work)
            }
            state.lastFlightID += 1
            let id = state.lastFlightID
            let work = Task { try await self.make(key, ttl: ttl, flight: id, produce: produce) }
            state.flights[key] = Flight(id: id, work: work)
            return .wait(id: id, work: work)
        }
        switch step {
        case .hit(let result):
            return result
        case .wait(let id, let work):
            return try await withTaskCancellationHandler {
                let result = try await work.value
                try Task.checkCancellation()
                return result
            } onCancel: {
                stopWaiting(for: id, key: key)
            }
        }
    }

    /// Runs `produce` for the flight of `key`, then stores the result and retires the flight.
    private func make(
        _ key: String, ttl: Duration, flight id: UInt64,
        produce: @Sendable () async throws -> StoredResult
    ) async throws -> StoredResult {
        let outcome: Result<StoredResult, any Error>
        do {
            outcome = .success(try await produce())
        } catch {
            outcome = .failure(error)
        }
        state.withLock { state in
            if state.flights[key]?.id == id { state.flights[key] = nil }
            if case .success(let result) = outcome { insert(result, for: key, ttl: ttl, into: &state) }
        }
        return try outcome.get()
    }

    /// A waiting caller was cancelled: the last one to leave cancels the making and retires
    /// its flight, so the next caller starts afresh (a flight already retired, its making
    /// finished, has nothing to cancel).
    private func stopWaiting(for id: UInt64, key: String) {
        let abandoned: Task<StoredResult, any Error>? = state.withLock { state in
            guard let flight = state.flights[key], flight.id == id else { return nil }
            state.flights[key]!.waiting -= 1
            guard flight.waiting == 1 else { return nil }
            state.flights[key] = nil
            return flight.work
        }
        abandoned?.cancel()
    }

    /// The memory one entry holds: the result's byte buffer as allocated (its capacity), its
    /// key, content type and ETag, and a fixed 160 bytes for the entry, its dictionary slot and
    /// the array and string headers.
    public static func cost(of result: StoredResult, key: String) -> Int {
        result.bytes.capacity + key.utf8.count + result.contentType.utf8.count + result.etag.utf8.count + 160
    }

    private func insert(_ result: StoredResult, for key: String, ttl: Duration, into state: inout State) {
        let cost = Self.cost(of: result, key: key)
        guard cost <= costLimit else { return }
        state.tick += 1
        if let old = state.entries[key] { state.cost -= old.cost }
        state.entries[key] = Entry(result: result, expiry: ContinuousClock.now + ttl, lastUse: state.tick, cost: cost)
        state.cost += cost
        guard state.cost > costLimit else { return }
        // Evict the least recently used quarter (at least enough to fit): one sort per
        // eviction round instead of one scan per entry.
        let target = costLimit * 3 / 4
        for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard state.cost > target else { break }
            state.entries[key] = nil
            state.cost -= entry.cost
        }
    }
}
