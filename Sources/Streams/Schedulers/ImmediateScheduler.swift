/// A scheduler for performing synchronous actions: every action runs at once, on the calling
/// thread. Its time is a counter that never advances on its own.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The immediate scheduler's time type: an integer count with no relation to wall time.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// The immediate scheduler's time interval type: an integer count.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByIntegerLiteral,
            ExpressibleByFloatLiteral, Hashable, Sendable
        {
            /// The count.
            public var magnitude: Int

            /// Creates an interval of `value`.
            public init(_ value: Int) { magnitude = value }
            /// Creates an interval from an integer literal.
            public init(integerLiteral value: Int) { magnitude = value }
            /// Creates an interval from a floating-point literal, rounded towards zero (as
            /// Combine's).
            public init(floatLiteral value: Double) { magnitude = Int(value) }
            /// Creates an interval from a binary integer, if it fits.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// Orders intervals.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Adds intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// Subtracts intervals.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// Multiplies intervals.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Every conversion yields zero: immediate time does not pass.
            public static func seconds(_ s: Int) -> Stride { 0 }
            /// Every conversion yields zero: immediate time does not pass.
            public static func seconds(_ s: Double) -> Stride { 0 }
            /// Every conversion yields zero: immediate time does not pass.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            /// Every conversion yields zero: immediate time does not pass.
            public static func microseconds(_ us: Int) -> Stride { 0 }
            /// Every conversion yields zero: immediate time does not pass.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }

        /// Returns the distance to another immediate scheduler time (always zero).
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }
        /// Advances the time by the specified amount (no change).
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// The scheduler needs no options.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// The current time (a constant).
    public var now: SchedulerTimeType { SchedulerTimeType() }
    /// Zero tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs the action immediately.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs the action immediately (the date is ignored).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs the action once, immediately; the returned cancellable does nothing (it is
    /// ``Subscriptions/empty``, as in Combine, and describes itself as "Empty").
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        action()
        return Subscriptions.empty
    }
}

extension ImmediateScheduler.SchedulerTimeType: Codable {}

/// Coded as `{"magnitude": n}`, Combine's shape.
extension ImmediateScheduler.SchedulerTimeType.Stride: Codable {}
