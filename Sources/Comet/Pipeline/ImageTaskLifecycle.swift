/// The life of an ``ImageTask`` as a pure state machine: which transitions are legal, and what
/// the task must do after each one. No locks, threads or callbacks: ``ImageTask`` keeps one
/// behind its lock and performs the returned action once it has let go of the lock.
///
/// ```
/// pending ──join──▶ joined ──finish──▶ finished
///    └──────── cancel or finish ────────▶ finished
/// ```
///
/// A task joins the graph (subscribes to its job) at most once, and only while pending; it
/// finishes exactly once, by its result or by ``cancel()``, whichever comes first (a result
/// arriving after a cancel is dropped: the caller already saw the task cancelled). Every other
/// transition is refused and returns the action that does nothing.
///
/// A value; not thread-safe on its own.
struct ImageTaskLifecycle: Sendable {
    typealias Outcome = Result<ImageResponse, ImagePipeline.Error>

    enum State: Sendable {
        /// Made; not in the graph yet.
        case pending
        /// Subscribed to its job in the graph.
        case joined
        /// Ended with `outcome`; `byCancel` when ``cancel()`` ended it.
        case finished(Outcome, byCancel: Bool)
    }

    /// What to do after ``join()``.
    enum JoinAction: Equatable {
        /// Subscribe to the job.
        case subscribe
        /// Make no job: the task already finished (or already joined).
        case stayOut
    }

    /// What to do after ``cancel()``.
    enum CancelAction: Sendable {
        /// Nothing: the task had already finished.
        case none
        /// Deliver `outcome` (a cancellation) to the task's observers, then, when `leaveGraph`,
        /// unsubscribe the task from its job in the graph.
        case finish(Outcome, leaveGraph: Bool)
    }

    /// What to do after ``finish(_:)``.
    enum FinishAction: Sendable {
        /// Nothing: the task had already finished.
        case none
        /// Deliver `outcome` to the task's observers.
        case deliver(Outcome)
    }

    private(set) var state = State.pending
    /// The priority its work runs at.
    private(set) var priority: ImageRequest.Priority

    init(priority: ImageRequest.Priority) {
        self.priority = priority
    }

    /// The outcome, once finished.
    var outcome: Outcome? {
        if case .finished(let outcome, _) = state { return outcome }
        return nil
    }

    /// Whether ``cancel()`` ended the task.
    var isCancelled: Bool {
        if case .finished(_, byCancel: true) = state { return true }
        return false
    }

    /// The task's public state: a failure by cancellation (the work's or the caller's) reads as
    /// cancelled.
    var publicState: ImageTask.State {
        switch state {
        case .pending, .joined: .running
        case .finished(_, byCancel: true), .finished(.failure(.cancelled), _): .cancelled
        case .finished: .completed
        }
    }

    /// The task asks to join the graph.
    mutating func join() -> JoinAction {
        guard case .pending = state else { return .stayOut }
        state = .joined
        return .subscribe
    }

    /// The caller cancels the task (`request` names it in the cancellation error).
    mutating func cancel(request: ImageRequest) -> CancelAction {
        let wasJoined: Bool
        switch state {
        case .pending: wasJoined = false
        case .joined: wasJoined = true
        case .finished: return .none
        }
        let outcome = Outcome.failure(.cancelled(request: request))
        state = .finished(outcome, byCancel: true)
        return .finish(outcome, leaveGraph: wasJoined)
    }

    /// The work (or the pipeline, when invalidated) ends the task with `outcome`.
    mutating func finish(_ outcome: Outcome) -> FinishAction {
        if case .finished = state { return .none }
        state = .finished(outcome, byCancel: false)
        return .deliver(outcome)
    }

    /// The caller changes the priority. Returns the priority for the task's work to take, or
    /// `nil` when the work has nothing to re-order (the same priority, or a finished task, which
    /// still keeps the new value).
    mutating func setPriority(_ newValue: ImageRequest.Priority) -> ImageRequest.Priority? {
        guard newValue != priority else { return nil }
        priority = newValue  // kept after the finish too (as Nuke does), with nothing to re-order
        return outcome == nil ? newValue : nil
    }
}
