import Locking

/// The state an operator built on ``ScheduledSubscription`` keeps beside the shared one: a value
/// that can start afresh, for when the stream ends.
protocol ScheduledPolicyState {
    /// The state of a stream that has not started, or has ended.
    init()
}

/// The base of the operators that stand between one upstream and one downstream and act on
/// their own timing or on a scheduler (`debounce`, `throttle`, `timeout`, `buffer`,
/// `collect(_:)` by time). It owns what they share; a subclass keeps only its policy: its own
/// state (`Policy`, in the same lock) and what it does with values, completions and requests.
///
/// - The lock: one `Locked` around both ends, the downstream's outstanding demand, the running
///   timer and the policy's state. Nothing is called (downstream, upstream, scheduler, timer,
///   user closure) while it is held: a step takes what it needs out of the state and calls
///   after the lock is released.
/// - The upstream's subscription: ``attach(_:)`` takes the first one; a second is cancelled,
///   and one that arrives after the downstream cancelled is left alone or cancelled, as the
///   operator's ``ContractPolicy`` says (as its Combine counterpart does).
/// - The end: the stream ends at a cancel (before the subscription arrives too) or when the
///   operator delivers its completion; both ends, the timer and the policy's state are let go
///   of at once (``State/end()``). Between the upstream's completion and its delivery on the
///   scheduler the stream is *completing* (``beginCompletion(_:)``): no value, request or timer
///   is taken any more, and a cancel still ends it.
/// - Scheduling: the repeating timer (``restartTimer(on:every:options:when:fire:)``) is numbered,
///   so a timer that fires after it was replaced, or after the end, does nothing, and one that
///   was started as the stream ended is cancelled at once. Scheduled actions hold the subclass
///   weakly and find no downstream after the end: nothing is delivered after a cancel.
///
/// Thread-safety: every field lives in ``state``; subclasses keep only immutable settings
/// beside it.
class ScheduledSubscription<Downstream, Policy: ScheduledPolicyState>: @unchecked Sendable {
    /// Everything that changes while the stream runs, under one lock.
    struct State {
        var upstream: Subscription?
        var downstream: Downstream?
        /// The downstream's outstanding demand (for the operators that count it).
        var demand = Subscribers.Demand.none
        /// The upstream completed and its completion waits to be delivered.
        var isCompleting = false
        /// The running timer, and the number it was started under.
        var timer: Cancellable?
        var timerGeneration: UInt64 = 0
        /// The operator's own state.
        var policy = Policy()

        init(downstream: Downstream? = nil) {
            self.downstream = downstream
        }

        /// Attached to both ends, and the upstream has not completed: upstream events are taken.
        var isAccepting: Bool { upstream != nil && downstream != nil && !isCompleting }

        /// Whether the timer numbered `generation` is the running one of a stream still taking
        /// events (a stale or late timer ends nothing).
        func isCurrentTimer(_ generation: UInt64) -> Bool {
            downstream != nil && !isCompleting && timerGeneration == generation
        }

        /// Ends the stream: the state starts afresh and the old one is returned, for the caller
        /// to notify its ends and release them (the downstream, buffered values) outside the lock.
        mutating func end() -> State {
            defer { self = State() }
            return self
        }
    }

    let state: Locked<State>
    /// What to do with events that break the contract: only
    /// ``ContractPolicy/cancelLateSubscription`` is read here.
    private let early: ContractPolicy

    init(downstream: Downstream, early: ContractPolicy = []) {
        state = Locked(State(downstream: downstream))
        self.early = early
    }

    /// For a subclass whose parts need the lock before it is made (``State/init(downstream:)``).
    init(state: Locked<State>, early: ContractPolicy = []) {
        self.state = state
        self.early = early
    }

    /// Takes the upstream's subscription and returns the downstream to hand the operator to, or
    /// `nil` when there is nothing to start: a second subscription is cancelled, and one that
    /// arrives after the downstream cancelled is cancelled or left alone (``ContractPolicy``).
    final func attach(_ subscription: Subscription) -> Downstream? {
        let (downstream, refused) = state.withLock { state -> (Downstream?, Bool) in
            guard let downstream = state.downstream else {
                return (nil, early.contains(.cancelLateSubscription))
            }
            guard state.upstream == nil else { return (nil, true) }
            state.upstream = subscription
            return (downstream, false)
        }
        if refused { subscription.cancel() }
        return downstream
    }

    /// Marks the upstream's completion while the stream takes events; `body` runs under the
    /// lock then. `nil` when the stream had not started, had ended or was completing already.
    final func beginCompletion<Result>(_ body: (inout State) -> Result) -> Result? {
        state.withLock { state -> Result? in
            guard state.isAccepting else { return nil }
            state.isCompleting = true
            return body(&state)
        }
    }

    /// Adds to the downstream's outstanding demand while the stream takes requests.
    final func addDemand(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        state.withLock { state in
            if state.downstream != nil, !state.isCompleting { state.demand += demand }
        }
    }

    /// The upstream, if any, and the downstream while the stream has not ended (for a scheduled
    /// delivery).
    final var ends: (upstream: Subscription?, downstream: Downstream)? {
        state.withLock { state in state.downstream.map { (state.upstream, $0) } }
    }

    /// Ends the stream for its scheduled completion and returns the downstream to deliver it to
    /// (`nil` after a cancel).
    final func endForCompletion() -> Downstream? {
        state.withLock { $0.end() }.downstream
    }

    /// Starts the wait again, as Combine's timed operators wait: a repeating timer every
    /// `interval`, first firing `interval` from now, which replaces (and cancels) the running
    /// one. `start` runs under the lock while the stream takes events, and returns whether to
    /// start; `fire` receives the timer's number, for ``State/isCurrentTimer(_:)``.
    final func restartTimer<Context: Scheduler>(
        on scheduler: Context,
        every interval: Context.SchedulerTimeType.Stride,
        options: Context.SchedulerOptions?,
        when start: (inout State) -> Bool = { _ in true },
        fire: @escaping (UInt64) -> Void
    ) {
        let generation = state.withLock { state -> UInt64? in
            guard state.downstream != nil, !state.isCompleting, start(&state) else { return nil }
            state.timerGeneration &+= 1
            return state.timerGeneration
        }
        guard let generation else { return }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval),
            interval: interval,
            tolerance: scheduler.minimumTolerance,
            options: options
        ) {
            fire(generation)
        }
        let stale = state.withLock { state -> Cancellable? in
            guard state.isCurrentTimer(generation) else { return timer }
            defer { state.timer = timer }
            return state.timer
        }
        stale?.cancel()
    }

    /// The downstream cancelled: ends the stream, then cancels the timer and the upstream.
    func cancel() {
        let ended = state.withLock { $0.end() }
        ended.timer?.cancel()
        ended.upstream?.cancel()
    }
}
