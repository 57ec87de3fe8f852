/// One request's way through ``RedisResultStore``'s cross-instance single flight, as a pure
/// state machine: each step's outcome (what Redis answered, what time it is) goes in, and the
/// next thing to do comes out. No Redis, clock or sleeping of its own: the store performs the
/// actions and reports back.
///
/// ```
/// lookingUp ──miss──▶ contending ──won──▶ producing
///     │                   │ ▲
///    hit               lost │ lease gone
///     ▼                   ▼ │
///  answered            waiting ──result──▶ answered
/// ```
///
/// Any Redis failure, and a wait past twice the lease, ends in producing alone (``Action/produceAlone(_:)``):
/// Redis never fails a request. A value; not thread-safe on its own.
struct LeaseFlight {
    enum State: Equatable {
        /// Asking Redis for a stored result.
        case lookingUp
        /// Trying to take the lease (`SET NX`).
        case contending
        /// Holds the lease: produces, stores, releases.
        case producing
        /// A peer holds the lease: polls for its result or for the lease to go, `interval` apart.
        case waiting(interval: Duration)
        /// Done: answered from Redis, or producing without the lease.
        case done
    }

    /// Why a request produces without the lease.
    enum SoloReason: Equatable {
        /// A Redis call failed (counted as a fallback).
        case redisFailed
        /// A peer's lease outlived twice its duration without a result.
        case waitedTooLong
        /// The flight was told of an event its state does not expect: a bug in the store, not a
        /// Redis failure, so it is not counted as a fallback.
        case unexpectedEvent
    }

    /// What the store does next.
    enum Action: Equatable {
        /// `GET` the result key, then ``lookedUp(_:)``.
        case lookUp
        /// `SET` the lease `NX` with its expiry, then ``contended(won:now:)``.
        case takeLease
        /// Produce, store the result and release the lease (only if still this one's).
        case produceAndStore
        /// Sleep `interval`, `GET` the result and the lease, then ``polled(result:leaseHeld:now:)``.
        case poll(after: Duration)
        /// Return the stored result found in Redis.
        case answer(StoredResult)
        /// Produce here, without storing.
        case produceAlone(SoloReason)
    }

    private(set) var state = State.lookingUp
    /// Whether the request has waited for a peer (counted once).
    private(set) var hasWaited = false
    private let leaseDuration: Duration
    private let initialPollInterval: Duration
    private let maximumPollInterval: Duration
    private var waitDeadline: ContinuousClock.Instant?

    init(leaseDuration: Duration, initialPollInterval: Duration, maximumPollInterval: Duration) {
        self.leaseDuration = leaseDuration
        self.initialPollInterval = initialPollInterval
        self.maximumPollInterval = maximumPollInterval
    }

    /// The first action.
    func start() -> Action { .lookUp }

    /// The result key's value: a stored result, or `nil` for a miss.
    mutating func lookedUp(_ stored: StoredResult?, now: ContinuousClock.Instant) -> Action {
        guard state == .lookingUp else { return refused() }
        if let stored {
            state = .done
            return .answer(stored)
        }
        waitDeadline = now + leaseDuration * 2
        state = .contending
        return .takeLease
    }

    /// Whether this request took the lease.
    mutating func contended(won: Bool, now: ContinuousClock.Instant) -> Action {
        guard state == .contending else { return refused() }
        if won {
            state = .producing
            return .produceAndStore
        }
        hasWaited = true
        return wait(interval: initialPollInterval, now: now)
    }

    /// A poll's answer: the stored result if there is one, and whether the lease is still held.
    mutating func polled(result: StoredResult?, leaseHeld: Bool, now: ContinuousClock.Instant) -> Action {
        guard case .waiting(let interval) = state else { return refused() }
        if let result {
            state = .done
            return .answer(result)
        }
        if !leaseHeld {
            // The producer failed or died: contend again.
            state = .contending
            return .takeLease
        }
        return wait(interval: min(interval * 2, maximumPollInterval), now: now)
    }

    /// A Redis call failed.
    mutating func redisFailed() -> Action {
        guard state != .done, state != .producing else { return refused() }
        state = .done
        return .produceAlone(.redisFailed)
    }

    private mutating func wait(interval: Duration, now: ContinuousClock.Instant) -> Action {
        if let waitDeadline, now >= waitDeadline {
            state = .done
            return .produceAlone(.waitedTooLong)
        }
        state = .waiting(interval: interval)
        return .poll(after: interval)
    }

    /// An event the current state does not expect (a bug in the store): the flight ends producing
    /// alone, since Redis never fails a request.
    private mutating func refused() -> Action {
        state = .done
        return .produceAlone(.unexpectedEvent)
    }
}
