import Locking
import Streams

/// A scheduler whose clock only moves when a test moves it: virtual time.
///
/// Actions scheduled on it wait in a queue until ``advance(by:)``, ``advance(to:)`` or ``run()``
/// moves the clock past their date; then they run, on the calling thread, in date order, and
/// actions due at the same instant run in the order they were scheduled. An action scheduled
/// while the clock is moving runs in the same move if it falls due before the target. So a test
/// of `debounce`, `delay` or `timeout` takes no wall-clock time and gives the same result on
/// every run.
///
/// ```swift
/// let scheduler = TestScheduler()
/// var values: [Int] = []
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.delay(for: .seconds(1), scheduler: scheduler).sink { values.append($0) }
/// subject.send(1)
/// scheduler.advance(by: .milliseconds(999))   // values == []
/// scheduler.advance(by: .milliseconds(1))     // values == [1]
/// ```
///
/// The clock starts at ``SchedulerTimeType/zero`` (or the time given to ``init(now:)``) and
/// never goes back: an action scheduled for a date in the past runs at the next move, at the
/// current time.
///
/// Thread-safety: every method may be called from any thread; the queue and the clock live in a
/// lock that is never held while an action runs. Moving the clock from two threads at once is
/// safe but makes the order between their actions depend on timing, which defeats the purpose.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// The test scheduler needs no options.
    public typealias SchedulerOptions = Never

    private struct Entry {
        let date: SchedulerTimeType
        let sequence: UInt64
        let token: UInt64
        let action: () -> Void
    }

    private struct State {
        var now: SchedulerTimeType
        var nextSequence: UInt64 = 0
        var nextToken: UInt64 = 0
        /// Kept sorted by (date, sequence).
        var queue: [Entry] = []
        /// Tokens of repeating actions that are still live.
        var liveRepeats: Set<UInt64> = []

        mutating func insert(at date: SchedulerTimeType, token: UInt64, _ action: @escaping () -> Void) {
            let entry = Entry(date: Swift.max(date, now), sequence: nextSequence, token: token, action: action)
            nextSequence += 1
            // Later than everything with the same or an earlier date: equal dates keep FIFO order.
            var low = 0
            var high = queue.count
            while low < high {
                let mid = (low + high) / 2
                if queue[mid].date <= entry.date { low = mid + 1 } else { high = mid }
            }
            queue.insert(entry, at: low)
        }
    }

    private let state: Locked<State>

    /// Creates a scheduler whose clock reads `now` (default: time zero).
    public init(now: SchedulerTimeType = .zero) {
        state = Locked(State(now: now))
    }

    /// The virtual current time.
    public var now: SchedulerTimeType { state.withLock { $0.now } }

    /// Zero: virtual time is exact.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// The number of actions waiting to run (a repeating action counts once).
    public var scheduledActionCount: Int { state.withLock { $0.queue.count } }

    /// Queues the action to run at the current time, at the next move of the clock (even a move
    /// by zero).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        state.withLock { state in state.insert(at: state.now, token: 0, action) }
    }

    /// Queues the action to run when the clock reaches `date` (the tolerance is ignored).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        state.withLock { state in state.insert(at: date, token: 0, action) }
    }

    /// Queues the action to run at `date` and then every `interval` after it, until the returned
    /// cancellable is cancelled (or released). An interval of zero or less runs it once only
    /// (a repetition at the same instant would never let the clock move on).
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            state.liveRepeats.insert(state.nextToken)
            return state.nextToken
        }
        scheduleRepeat(at: date, interval: interval, token: token, action)
        return AnyCancellable { [weak self] in
            let dropped = self?.state.withLock { state -> [Entry] in
                state.liveRepeats.remove(token)
                let dropped = state.queue.filter { $0.token == token }
                state.queue.removeAll { $0.token == token }
                return dropped
            }
            _ = dropped  // actions released outside the lock
        }
    }

    private func scheduleRepeat(
        at date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        token: UInt64,
        _ action: @escaping () -> Void
    ) {
        state.withLock { state in
            guard state.liveRepeats.contains(token) else { return }
            state.insert(at: date, token: token) { [weak self] in
                guard let self, self.state.withLock({ $0.liveRepeats.contains(token) }) else { return }
                // The next run is queued first, so an action that cancels itself removes it.
                if interval > .zero {
                    self.scheduleRepeat(at: date.advanced(by: interval), interval: interval, token: token, action)
                }
                action()
            }
        }
    }

    /// Moves the clock forward by `stride` (a negative stride does nothing), running every action
    /// that falls due on the way, in order, with the clock set to each action's date while it
    /// runs. The clock ends at the target.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: now.advanced(by: Swift.max(stride, .zero)))
    }

    /// Moves the clock forward to `date` (a date in the past does nothing but run what is due
    /// now), running every action that falls due on the way.
    public func advance(to date: SchedulerTimeType) {
        while let entry = popDue(notAfter: date) {
            entry.action()
        }
        state.withLock { state in state.now = Swift.max(state.now, date) }
    }

    /// Runs queued actions, moving the clock to each one's date, until the queue is empty or
    /// `maxActions` actions have run (a repeating action that is never cancelled would otherwise
    /// keep it going forever). Returns the number of actions run.
    @discardableResult
    public func run(maxActions: Int = 100_000) -> Int {
        var count = 0
        while count < maxActions, let entry = popDue(notAfter: nil) {
            entry.action()
            count += 1
        }
        return count
    }

    /// Takes the first queued action due at or before `limit` (any, if `nil`) and moves the clock
    /// to its date.
    private func popDue(notAfter limit: SchedulerTimeType?) -> Entry? {
        state.withLock { state -> Entry? in
            guard let first = state.queue.first else { return nil }
            if let limit, first.date > limit { return nil }
            state.queue.removeFirst()
            state.now = Swift.max(state.now, first.date)
            return first
        }
    }
}
