import Foundation
import Locking
import Streams

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval, once
    /// connected (`connect()` or `autoconnect()`).
    ///
    /// - Parameters:
    ///   - interval: The time between emissions, in seconds.
    ///   - tolerance: Ignored, as Combine's `Timer.publish` ignores it: the publisher's
    ///     ``TimerPublisher/tolerance`` is `nil` (make a ``TimerPublisher`` directly to set one).
    ///   - runLoop: The run loop the timer runs on; its thread must be running it.
    ///   - mode: The run loop mode.
    ///   - options: Scheduler options (none are used).
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
    }

    /// A connectable publisher of dates from a repeating `Timer` on a run loop.
    ///
    /// Subscribers attach without starting the timer; ``connect()`` schedules it, and cancelling
    /// the connection invalidates it. As with Combine, a subscriber without demand misses the
    /// dates fired meanwhile. Thread-safety: subscribe and connect from any thread; dates are
    /// delivered on the run loop's thread.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The date each time the timer fires.
        public typealias Output = Date
        /// It never fails.
        public typealias Failure = Never

        /// The time between emissions, in seconds.
        public let interval: TimeInterval
        /// The allowed lateness, if set.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode.
        public let mode: RunLoop.Mode
        /// Scheduler options (none are used).
        public let options: RunLoop.SchedulerOptions?

        private let subject = PassthroughSubject<Date, Never>()

        /// Creates a timer publisher.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches the subscriber; it receives dates fired after it demanded them.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Schedules the timer on the run loop; cancelling the result invalidates it.
        public func connect() -> Cancellable {
            let subject = UncheckedSubject(subject: subject)
            let timer = Timer(timeInterval: interval, repeats: true) { _ in subject.subject.send(Date()) }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            let box = UncheckedTimer(timer: timer)
            return AnyCancellable { box.timer.invalidate() }
        }
    }
}

/// A subject carried into a `@Sendable` timer block; subjects are thread-safe.
struct UncheckedSubject: @unchecked Sendable {
    let subject: PassthroughSubject<Date, Never>
}
