import Locking

/// Bounds the service's expensive work: at most ``maximumConcurrent`` pieces of work run, at most
/// ``maximumQueued`` more wait (first come, first served), and anything past that is refused at
/// once with ``ServiceError/overloaded(retryAfter:)`` (503 + `Retry-After`), so a burst never
/// becomes an unbounded backlog. A waiter whose task is cancelled leaves the queue.
///
/// Thread-safe (a mutex; continuations are resumed outside it).
public final class LoadShedder: Sendable {
    private struct State {
        var active = 0
        var nextID = 0
        var queue: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    /// How many pieces of work run at once.
    public let maximumConcurrent: Int
    /// How many more may wait for a turn.
    public let maximumQueued: Int
    /// The `Retry-After` seconds sent with a refusal.
    public let retryAfter: Int
    private let state = Locked(State())
    private let onChange: @Sendable (_ active: Int, _ queued: Int) -> Void

    /// Creates a shedder. `onChange` is called (outside the lock) with the counts after each
    /// change, for gauges.
    public init(maximumConcurrent: Int, maximumQueued: Int, retryAfter: Int = 1,
                onChange: @escaping @Sendable (_ active: Int, _ queued: Int) -> Void = { _, _ in }) {
        precondition(maximumConcurrent > 0 && maximumQueued >= 0)
        self.maximumConcurrent = maximumConcurrent
        self.maximumQueued = maximumQueued
        self.retryAfter = retryAfter
        self.onChange = onChange
    }

    /// The work running and waiting now.
    public var load: (active: Int, queued: Int) { state.withLock { ($0.active, $0.queue.count) } }

    /// Runs `work` when a slot is free; throws ``ServiceError`` 503 when the queue is full, or
    /// `CancellationError` when the caller is cancelled while waiting.
    public func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        enum Admission { case run, wait(Int), refuse }
        let admission: Admission = state.withLock { state in
            if state.active < maximumConcurrent {
                state.active += 1
                return .run
            }
            guard state.queue.count < maximumQueued else { return .refuse }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch admission {
        case .run:
            report()
        case .refuse:
            throw ServiceError.overloaded(retryAfter: retryAfter)
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state in
                        if Task.isCancelled { return true }
                        state.queue.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) } else { report() }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    state.queue.firstIndex { $0.id == id }.map { state.queue.remove(at: $0).continuation }
                }
                waiter?.resume(throwing: CancellationError())
                report()
            }
        }
    }

    private func release() {
        // The slot passes straight to the first waiter, so `active` stays the same.
        let next = state.withLock { state in
            if state.queue.isEmpty {
                state.active -= 1
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.queue.removeFirst().continuation
        }
        next?.resume()
        report()
    }

    private func report() {
        let (active, queued) = load
        onChange(active, queued)
    }
}
