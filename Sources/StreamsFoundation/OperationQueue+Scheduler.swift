import Dispatch
import Foundation
import Streams

extension OperationQueue: Scheduler {
    /// The operation queue's time type: a `Date` (shared with `RunLoop`'s).
    public typealias SchedulerTimeType = FoundationSchedulerTime

    /// Options for the operation queue scheduler (none yet).
    public struct SchedulerOptions: Sendable {
        /// Creates empty options.
        public init() {}
    }

    /// The current date.
    public var now: SchedulerTimeType { FoundationSchedulerTime(Date()) }

    /// Zero seconds.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds the action to the queue as a `BlockOperation`, as Combine does (one
    /// `addOperation(_:)` call). Use a queue with `maxConcurrentOperationCount == 1` to keep
    /// deliveries ordered.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = SchedulerAction(body: action)
        addOperation(BlockOperation { action.body() })
    }

    /// Adds the action to the queue at `date` (a Dispatch timer waits meanwhile).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = SchedulerAction(body: action)
        let queue = UncheckedQueue(queue: self)
        let delay = Swift.max(0, date.date.timeIntervalSinceNow)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            queue.queue.addOperation { action.body() }
        }
    }

    /// Adds the action to the queue from `date` on, every `interval`, until the returned
    /// cancellable is cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = SchedulerAction(body: action)
        let queue = UncheckedQueue(queue: self)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let delay = Swift.max(0, date.date.timeIntervalSinceNow)
        let nanos = Int(Swift.min(Swift.max(interval.timeInterval, 0.000_001) * 1e9, Double(Int.max / 2)))
        timer.schedule(
            deadline: .now() + delay, repeating: .nanoseconds(nanos),
            leeway: .nanoseconds(Int(tolerance.timeInterval * 1e9)))
        timer.setEventHandler { queue.queue.addOperation { action.body() } }
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// An `OperationQueue` carried into Dispatch; adding operations is thread-safe.
struct UncheckedQueue: @unchecked Sendable {
    let queue: OperationQueue
}
