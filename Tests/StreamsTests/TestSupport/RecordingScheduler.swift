import Locking
import Streams
import StreamsTesting

/// A ``TestScheduler`` that records every call an operator makes on it, in order, so a test can
/// check the calls Combine's operator makes: reads of `now` and `minimumTolerance`, immediate,
/// dated and repeating schedules.
final class RecordingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    /// One call, as a short string: `now`, `tolerance`, `schedule`, `after(<ns>)`,
    /// `repeat(<ns>, every: <ns>)` (times in nanoseconds since zero).
    private let calls = Locked<[String]>([])
    let clock = TestScheduler()

    /// The calls so far.
    var log: [String] { calls.withLock { $0 } }

    private func record(_ call: String) { calls.withLock { $0.append(call) } }

    var now: SchedulerTimeType {
        record("now")
        return clock.now
    }

    var minimumTolerance: SchedulerTimeType.Stride {
        record("tolerance")
        return clock.minimumTolerance
    }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        record("schedule")
        clock.schedule(action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        record("after(\(date.nanoseconds))")
        clock.schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        record("repeat(\(date.nanoseconds), every: \(interval.magnitude))")
        return clock.schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

}
