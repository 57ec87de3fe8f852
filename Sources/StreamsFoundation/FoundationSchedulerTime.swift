import Foundation
import Streams

/// The time type of the Foundation schedulers (`RunLoop`, `OperationQueue`): a `Date`, with
/// strides in seconds (`TimeInterval`). Codable as its date and its seconds.
public struct FoundationSchedulerTime: Strideable, Codable, Hashable, Sendable {
    /// The date this time represents.
    public var date: Date

    /// Creates a time from a date.
    public init(_ date: Date) {
        self.date = date
    }

    /// The interval from this time to `other`.
    public func distance(to other: FoundationSchedulerTime) -> Stride {
        Stride(other.date.timeIntervalSince(date))
    }

    /// The time `n` after this one.
    public func advanced(by n: Stride) -> FoundationSchedulerTime {
        FoundationSchedulerTime(date.addingTimeInterval(n.timeInterval))
    }

    /// An interval in seconds. Integer and float literals are seconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
        Codable, Hashable, Sendable
    {
        /// The interval in seconds.
        public var magnitude: TimeInterval
        /// The interval in seconds (the same as ``magnitude``).
        public var timeInterval: TimeInterval { magnitude }

        /// An interval of `timeInterval` seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        /// An interval of `value` seconds.
        public init(integerLiteral value: Int) { magnitude = TimeInterval(value) }
        /// An interval of `value` seconds.
        public init(floatLiteral value: Double) { magnitude = value }
        /// An interval of `source` seconds, if exactly representable.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let value = TimeInterval(exactly: source) else { return nil }
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

        /// An interval of `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        /// An interval of `s` seconds.
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        /// An interval of `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1e3) }
        /// An interval of `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1e6) }
        /// An interval of `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1e9) }
    }
}

/// Carries a non-`Sendable` action into Foundation's `@Sendable` callbacks. Sound because each
/// scheduler runs each action on one thread at a time and the operators that schedule actions
/// hand over ownership.
struct SchedulerAction: @unchecked Sendable {
    let body: () -> Void
}

/// Carries a callback formed in generic code into Foundation's `@Sendable` callbacks (so they
/// capture no generic metatype). Sound for the same reason as ``SchedulerAction``.
struct UncheckedCallback<Argument>: @unchecked Sendable {
    let body: (Argument) -> Void
}
