import DequeModule

/// The load shedder's decisions as a pure state machine: how many pieces of work run, who waits
/// for a turn (first come, first served), who is refused, and who takes a freed slot. No locks
/// and no continuations: ``LoadShedder`` keeps one behind its lock and performs the returned
/// actions (resuming a waiter) after letting go of it.
///
/// Each arrival is decided and, when it waits, queued in the same step, so a slot freed between
/// the two can never be missed. A finishing piece of work hands its slot straight to the first
/// waiter, so the running count stays the same.
///
/// A value; not thread-safe on its own. `Waiter` is whatever the owner resumes (a continuation).
struct AdmissionQueue<Waiter> {
    /// How many pieces of work run at once (at least 1).
    let maximumConcurrent: Int
    /// How many more may wait (0 or more).
    let maximumQueued: Int
    /// The work running now.
    private(set) var active = 0
    private var waiting: Deque<(id: Int, waiter: Waiter)> = []

    /// What to do with an arrival.
    enum ArrivalAction: Equatable {
        /// Run now: it took a free slot.
        case run
        /// Nothing yet: it waits in line, and a finishing piece of work will resume it.
        case wait
        /// Refuse it: the line is full.
        case refuse
        /// Fail it: its caller was cancelled before it arrived.
        case cancel
    }

    init(maximumConcurrent: Int, maximumQueued: Int) {
        precondition(maximumConcurrent > 0 && maximumQueued >= 0)
        self.maximumConcurrent = maximumConcurrent
        self.maximumQueued = maximumQueued
    }

    /// How many wait.
    var queued: Int { waiting.count }

    /// An arrival that needs no waiter: `.run` when a slot is free (it takes it), `.cancel` when
    /// its caller was already cancelled, else `nil`, and nothing changes: the arrival then goes
    /// through ``arrive(id:waiter:isCancelled:)``, which decides again with its waiter in one step
    /// (a slot freed in between is not lost).
    mutating func arriveIfFree(isCancelled: Bool) -> ArrivalAction? {
        if isCancelled { return .cancel }
        guard active < maximumConcurrent else { return nil }
        active += 1
        return .run
    }

    /// A piece of work `id` arrives with the `waiter` to resume when its turn comes;
    /// `isCancelled` when its caller was already cancelled.
    mutating func arrive(id: Int, waiter: Waiter, isCancelled: Bool) -> ArrivalAction {
        if isCancelled { return .cancel }
        if active < maximumConcurrent {
            active += 1
            return .run
        }
        guard waiting.count < maximumQueued else { return .refuse }
        waiting.append((id, waiter))
        return .wait
    }

    /// A running piece of work finished. Returns the waiter that takes its slot (resume it),
    /// or `nil` when nobody waits (the slot is free).
    mutating func finish() -> Waiter? {
        precondition(active > 0, "a piece of work finished that never ran")
        guard let next = waiting.popFirst() else {
            active -= 1
            return nil
        }
        return next.waiter
    }

    /// The caller of `id` was cancelled. Returns its waiter (fail it) when it was still waiting,
    /// `nil` when it is not in line (it runs, or it never arrived: ``arrive(id:waiter:isCancelled:)``
    /// then sees the cancellation).
    mutating func abandon(id: Int) -> Waiter? {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: index).waiter
    }
}
