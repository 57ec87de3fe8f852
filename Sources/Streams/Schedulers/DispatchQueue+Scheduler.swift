import Dispatch

/// Carries a non-`Sendable` action into Dispatch. Sound because the scheduler runs each action
/// exactly once, on one thread, and the operators that schedule actions hand over ownership.
struct ScheduledAction: @unchecked Sendable {
    let body: () -> Void
}

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// Returns the distance to another dispatch queue time. As in Combine, it saturates
        /// instead of wrapping: a time beyond `Int.max` nanoseconds (such as `.distantFuture`)
        /// is infinitely far from any other, `.nanoseconds(.max)` away in either direction.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let (start, end) = (dispatchTime.uptimeNanoseconds, other.dispatchTime.uptimeNanoseconds)
            guard start != end else { return .nanoseconds(0) }
            guard let from = Int(exactly: start), let to = Int(exactly: end) else { return .nanoseconds(.max) }
            return .nanoseconds(to - from)
        }

        /// Returns a dispatch queue scheduler time calculated by advancing this instance's time
        /// by the given interval. Going past `Int64.max` nanoseconds gives `.distantFuture`; going
        /// before its start stops at one nanosecond (a raw time of zero means "now" to
        /// Dispatch).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let start = dispatchTime.uptimeNanoseconds
            let result: UInt64
            if n.magnitude >= 0 {
                let (sum, overflow) = start.addingReportingOverflow(UInt64(n.magnitude))
                // Dispatch has no time past `Int64.max` nanoseconds but "forever".
                result = overflow || sum > UInt64(Int64.max) ? DispatchTime.distantFuture.uptimeNanoseconds : sum
            } else {
                let back = UInt64(n.magnitude.magnitude)
                result = start > back ? start - back : 1
            }
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: Swift.max(result, 1)))
        }

        /// Hashes the time.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// Two times are equal when their uptime nanoseconds are.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// A dispatch queue time interval, stored as signed nanoseconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Sendable
        {
            /// The value of this time interval in nanoseconds.
            public var magnitude: Int

            /// A `DispatchTimeInterval` of the same length.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// Creates an interval from a `DispatchTimeInterval`.
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): magnitude = Stride.saturating(s, times: 1_000_000_000)
                case .milliseconds(let ms): magnitude = Stride.saturating(ms, times: 1_000_000)
                case .microseconds(let us): magnitude = Stride.saturating(us, times: 1_000)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// Creates an interval of `value` seconds. Intervals beyond what `Int` nanoseconds can
            /// hold saturate at `Int.max` / `Int.min` nanoseconds; NaN is zero.
            public init(floatLiteral value: Double) {
                let nanos = (value * 1_000_000_000).rounded()
                if nanos.isNaN {
                    magnitude = 0
                } else if nanos >= Double(Int.max) {
                    magnitude = .max
                } else if nanos <= Double(Int.min) {
                    magnitude = .min
                } else {
                    magnitude = Int(nanos)
                }
            }

            /// Creates an interval of `value` seconds (saturating, like every conversion here).
            public init(integerLiteral value: Int) {
                magnitude = Stride.saturating(value, times: 1_000_000_000)
            }

            /// Creates an interval of `source` seconds, if it fits.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                guard !overflow else { return nil }
                magnitude = nanos
            }

            private init(nanoseconds: Int) { magnitude = nanoseconds }

            /// `value * factor`, clamped to `Int`'s range instead of wrapping.
            private static func saturating(_ value: Int, times factor: Int) -> Int {
                let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                guard overflow else { return product }
                return (value < 0) == (factor < 0) ? .max : .min
            }

            /// `lhs + rhs`, clamped to `Int`'s range.
            private static func saturating(_ lhs: Int, plus rhs: Int) -> Int {
                let (sum, overflow) = lhs.addingReportingOverflow(rhs)
                guard overflow else { return sum }
                return rhs > 0 ? .max : .min
            }

            /// Orders intervals.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Adds intervals, saturating at the largest and smallest intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: saturating(lhs.magnitude, plus: rhs.magnitude))
            }
            /// Subtracts intervals, saturating at the largest and smallest intervals.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                rhs.magnitude == .min
                    ? Stride(nanoseconds: saturating(saturating(lhs.magnitude, plus: .max), plus: 1))
                    : Stride(nanoseconds: saturating(lhs.magnitude, plus: -rhs.magnitude))
            }
            /// Multiplies intervals as Combine does, as numbers of seconds: the product of two
            /// nanosecond counts is divided by a billion (rounded towards zero), saturating.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                let seconds = Double(lhs.magnitude) * Double(rhs.magnitude) / 1_000_000_000
                guard seconds.magnitude < Double(Int.max) else { return Stride(nanoseconds: seconds < 0 ? .min : .max) }
                return Stride(nanoseconds: Int(seconds.rounded(.towardZero)))
            }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// An interval of `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
            /// An interval of `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }
            /// An interval of `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
            /// An interval of `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
            /// An interval of `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler. (`@unchecked Sendable`:
    /// all fields are immutable-after-creation value types or thread-safe Dispatch objects.)
    public struct SchedulerOptions: @unchecked Sendable {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS
        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags
        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        /// Creates dispatch scheduler options.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The current time (`DispatchTime.now()`).
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Zero nanoseconds.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs the action asynchronously on this queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = ScheduledAction(body: action)
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            action.body()
        }
    }

    /// Runs the action on this queue after the given time.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = ScheduledAction(body: action)
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            action.body()
        }
    }

    /// Runs the action on this queue repeatedly from the given time, until cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = ScheduledAction(body: action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.setEventHandler { action.body() }
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

extension DispatchQueue.SchedulerTimeType: Codable {
    /// Decodes the uptime in nanoseconds.
    public init(from decoder: any Decoder) throws {
        self.init(DispatchTime(uptimeNanoseconds: try decoder.singleValueContainer().decode(UInt64.self)))
    }

    /// Encodes the uptime in nanoseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dispatchTime.uptimeNanoseconds)
    }
}

extension DispatchQueue.SchedulerTimeType.Stride: Codable {
    /// Combine's coding key: the interval is kept as `{"_nanoseconds": n}`.
    private enum CodingKeys: String, CodingKey {
        case nanoseconds = "_nanoseconds"
    }

    /// Decodes the interval in nanoseconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(.nanoseconds(try container.decode(Int.self, forKey: .nanoseconds)))
    }

    /// Encodes the interval in nanoseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(magnitude, forKey: .nanoseconds)
    }
}
