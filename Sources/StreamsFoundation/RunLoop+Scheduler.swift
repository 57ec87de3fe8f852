import Foundation
import Streams

extension RunLoop: Scheduler {
    /// The run loop's time type: a `Date` (shared with `OperationQueue`'s; Combine has one type
    /// per scheduler).
    public typealias SchedulerTimeType = FoundationSchedulerTime

    /// Options for the run loop scheduler (none yet).
    public struct SchedulerOptions: Sendable {
        /// Creates empty options.
        public init() {}
    }

    /// The current date.
    public var now: SchedulerTimeType { FoundationSchedulerTime(Date()) }

    /// Zero seconds.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs the action on this run loop's thread, in the default mode, the next time it runs.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        schedule(after: now, tolerance: minimumTolerance, options: options, action)
    }

    /// Runs the action on this run loop's thread at `date` or later (a one-shot `Timer`).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = SchedulerAction(body: action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action.body() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Runs the action on this run loop's thread from `date` on, every `interval`, until the
    /// returned cancellable is cancelled (a repeating `Timer`, invalidated on cancel).
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = SchedulerAction(body: action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in action.body() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        let box = UncheckedTimer(timer: timer)
        return AnyCancellable { box.timer.invalidate() }
    }
}

/// A `Timer` carried into a cancellation closure; `invalidate()` is thread-safe in
/// swift-corelibs-foundation (it takes the run loop's lock).
struct UncheckedTimer: @unchecked Sendable {
    let timer: Timer
}
