import Locking

/// Decides whether a call may touch Redis. Closed: every call may. After an availability
/// failure it opens for a backoff, during which calls fail at once; when the backoff ends, one
/// call probes (half-open) while the others still fail at once; the probe's success closes it,
/// its failure reopens it with the backoff doubled (capped).
///
/// Its state is a pure ``StateMachine`` value. Thread-safe (a mutex around it).
final class CircuitBreaker: Sendable {
    /// What a recorded outcome changed, so the caller can log transitions only.
    enum Transition: Sendable, Equatable {
        case none
        case opened(backoff: Duration)
        case closed
    }

    /// Whether a call is admitted, and whether it is the half-open probe.
    enum Admission: Sendable, Equatable {
        case allowed
        case probe
        case rejected
    }

    private let state: Locked<StateMachine>

    init(initialBackoff: Duration, maximumBackoff: Duration) {
        state = Locked(StateMachine(initialBackoff: initialBackoff, maximumBackoff: maximumBackoff))
    }

    /// Whether a call may go to Redis now.
    func admit(now: ContinuousClock.Instant = .now) -> Admission {
        state.withLock { $0.admit(now: now) }
    }

    /// Releases the probe slot of a probe that never reached Redis (queue full, client closed).
    func abandonProbe() {
        state.withLock { $0.abandonProbe() }
    }

    /// Records a call's outcome: `failed` is true for availability failures only.
    func record(failed: Bool, probe: Bool, now: ContinuousClock.Instant = .now) -> Transition {
        state.withLock { $0.record(failed: failed, probe: probe, now: now) }
    }
}
