import Locking

/// Decides whether a call may touch Redis. Closed: every call may. After an availability
/// failure it opens for a backoff, during which calls fail at once; when the backoff ends, one
/// call probes (half-open) while the others still fail at once; the probe's success closes it,
/// its failure reopens it with the backoff doubled (capped).
///
/// Thread-safe (a mutex around a few words).
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

    private struct State {
        var openUntil: ContinuousClock.Instant?
        var backoff: Duration
        var probing = false
    }

    private let state: Locked<State>
    private let initialBackoff: Duration
    private let maximumBackoff: Duration

    init(initialBackoff: Duration, maximumBackoff: Duration) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = max(initialBackoff, maximumBackoff)
        state = Locked(State(backoff: initialBackoff))
    }

    /// Whether a call may go to Redis now.
    func admit(now: ContinuousClock.Instant = .now) -> Admission {
        state.withLock { state in
            guard let openUntil = state.openUntil else { return .allowed }
            if now < openUntil || state.probing { return .rejected }
            state.probing = true
            return .probe
        }
    }

    /// Releases the probe slot of a probe that never reached Redis (queue full, client closed).
    func abandonProbe() {
        state.withLock { $0.probing = false }
    }

    /// Records a call's outcome: `failed` is true for availability failures only.
    func record(failed: Bool, probe: Bool, now: ContinuousClock.Instant = .now) -> Transition {
        state.withLock { state in
            if !failed {
                guard state.openUntil != nil, probe || !state.probing else { return .none }
                state = State(backoff: initialBackoff)
                return .closed
            }
            if state.openUntil == nil {
                state.openUntil = now + state.backoff
                return .opened(backoff: state.backoff)
            }
            guard probe else { return .none }  // a straggler from before the circuit opened
            state.backoff = min(state.backoff * 2, maximumBackoff)
            state.openUntil = now + state.backoff
            state.probing = false
            return .opened(backoff: state.backoff)
        }
    }
}
