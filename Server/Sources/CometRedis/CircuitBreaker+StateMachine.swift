extension CircuitBreaker {
    /// The breaker's state as a pure value: each event returns what the breaker answers (an
    /// ``Admission``) or what it changed (a ``Transition``), and the breaker applies it under
    /// its mutex. A refused event (a late failure of a call admitted before the circuit opened,
    /// a success while the probe is out) returns `.none` and changes nothing.
    ///
    /// ```
    /// closed   ──failure────────────────────────────▶ open
    /// open     ──a call after its backoff (the probe)▶ halfOpen
    /// open     ──success (a call from before)────────▶ closed
    /// halfOpen ──the probe's success─────────────────▶ closed
    /// halfOpen ──the probe's failure (backoff × 2)───▶ open
    /// halfOpen ──the probe abandoned─────────────────▶ open
    /// ```
    struct StateMachine: Sendable, Equatable {
        /// Where the breaker is.
        enum Phase: Sendable, Equatable {
            /// Every call may go.
            case closed
            /// Calls fail at once until the instant; the first call after it probes.
            case open(until: ContinuousClock.Instant)
            /// The backoff that ended at `until` is over and one probe is out; the others fail.
            case halfOpen(until: ContinuousClock.Instant)
        }

        /// The current phase.
        private(set) var phase = Phase.closed
        /// The wait of the next opening: `initialBackoff`, doubled by each failed probe.
        private(set) var backoff: Duration
        private let initialBackoff: Duration
        private let maximumBackoff: Duration

        /// A closed breaker whose first opening lasts `initialBackoff`, doubled by each failed
        /// probe up to `maximumBackoff` (at least `initialBackoff`).
        init(initialBackoff: Duration, maximumBackoff: Duration) {
            self.initialBackoff = initialBackoff
            self.maximumBackoff = max(initialBackoff, maximumBackoff)
            backoff = initialBackoff
        }

        /// A call asks to go at `now`.
        mutating func admit(now: ContinuousClock.Instant) -> Admission {
            switch phase {
            case .closed:
                return .allowed
            case .open(let until) where now >= until:
                phase = .halfOpen(until: until)
                return .probe
            case .open, .halfOpen:
                return .rejected
            }
        }

        /// The probe never reached Redis (queue full, client closed): the next call probes.
        mutating func abandonProbe() {
            if case .halfOpen(let until) = phase { phase = .open(until: until) }
        }

        /// A call ended at `now`: `failed` for an availability failure, `probe` when it was
        /// the half-open probe.
        mutating func record(failed: Bool, probe: Bool, now: ContinuousClock.Instant) -> Transition {
            switch (phase, failed) {
            case (.closed, false):
                return .none
            case (.closed, true):
                phase = .open(until: now + backoff)
                return .opened(backoff: backoff)
            case (.open, false):
                // A call admitted before the circuit opened reached Redis: it is back.
                close()
                return .closed
            case (.halfOpen, false):
                guard probe else { return .none }
                close()
                return .closed
            case (.open, true), (.halfOpen, true):
                guard probe else { return .none }  // a straggler from before the circuit opened
                backoff = min(backoff * 2, maximumBackoff)
                phase = .open(until: now + backoff)
                return .opened(backoff: backoff)
            }
        }

        private mutating func close() {
            phase = .closed
            backoff = initialBackoff
        }
    }
}
