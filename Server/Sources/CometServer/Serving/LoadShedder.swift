import Locking

/// Bounds the service's expensive work: at most ``maximumConcurrent`` pieces of work run, at most
/// ``maximumQueued`` more wait (first come, first served), and anything past that is refused at
/// once with ``ServiceError/overloaded(retryAfter:)`` (503 + `Retry-After`), so a burst never
/// becomes an unbounded backlog. A waiter whose task is cancelled leaves the queue.
///
/// Thread-safe (a mutex; continuations are resumed outside it).
public final class LoadShedder: Sendable {
    private struct State {
        var admission: AdmissionQueue<CheckedContinuation<Void, any Error>>
        var nextID = 0
    }

    /// How many pieces of work run at once.
    public let maximumConcurrent: Int
    /// How many more may wait for a turn.
    public let maximumQueued: Int
    /// The `Retry-After` seconds sent with a refusal.
    public let retryAfter: Int
    private let state: Locked<State>
    private let onChange: @Sendable (_ active: Int, _ queued: Int) -> Void

    /// Creates a shedder. `onChange` is called (outside the lock) with the counts after each
    /// change, for gauges.
    public init(
        maximumConcurrent: Int, maximumQueued: Int, retryAfter: Int = 1,
        onChange: @escaping @Sendable (_ active: Int, _ queued: Int) -> Void = { _, _ in }
    ) {
        self.maximumConcurrent = maximumConcurrent
        self.maximumQueued = maximumQueued
        self.retryAfter = retryAfter
        self.onChange = onChange
        state = Locked(
            State(admission: AdmissionQueue(maximumConcurrent: maximumConcurrent, maximumQueued: maximumQueued)))
    }

    /// The work running and waiting now.
    public var load: (active: Int, queued: Int) { state.withLock { ($0.admission.active, $0.admission.queued) } }

    /// Runs `work` when a slot is free; throws ``ServiceError`` 503 when the queue is full, or
    /// `CancellationError` when the caller is cancelled while waiting.
    public func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        // Most arrivals find a slot free: they take it without a continuation.
        switch state.withLock({ $0.admission.arriveIfFree(isCancelled: Task.isCancelled) }) {
        case .run?:
            report()
            return
        case .cancel?:
            throw CancellationError()
        default:
            break
        }
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let action = state.withLock {
                    $0.admission.arrive(id: id, waiter: continuation, isCancelled: Task.isCancelled)
                }
                switch action {
                case .run: continuation.resume()
                case .wait: break
                case .refuse: continuation.resume(throwing: ServiceError.overloaded(retryAfter: retryAfter))
                case .cancel: continuation.resume(throwing: CancellationError())
                }
                report()
            }
        } onCancel: {
            let waiter = state.withLock { $0.admission.abandon(id: id) }
            guard let waiter else { return }
            waiter.resume(throwing: CancellationError())
            report()
        }
    }

    private func release() {
        let next = state.withLock { $0.admission.finish() }
        next?.resume()
        report()
    }

    private func report() {
        let (active, queued) = load
        onChange(active, queued)
    }
}
