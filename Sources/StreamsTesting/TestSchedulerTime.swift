import Streams

extension TestScheduler {
    /// An instant of virtual time: a count of nanoseconds since time zero.
    ///
    /// Encodes (`Codable`) as its nanosecond count.
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// Nanoseconds since time zero.
        public var nanoseconds: Int

        /// Time zero, where a ``TestScheduler`` starts by default.
        public static let zero = SchedulerTimeType(nanoseconds: 0)

        /// Creates the instant `nanoseconds` after time zero.
        public init(nanoseconds: Int) {
            self.nanoseconds = nanoseconds
        }

        /// Decodes the nanosecond count.
        public init(from decoder: any Decoder) throws {
            nanoseconds = try decoder.singleValueContainer().decode(Int.self)
        }

        /// Encodes the nanosecond count.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(nanoseconds)
        }

        /// The interval from this instant to `other` (saturating).
        public func distance(to other: SchedulerTimeType) -> Stride {
            let (difference, overflow) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
            guard !overflow else { return Stride(nanoseconds: other.nanoseconds > nanoseconds ? .max : .min) }
            return Stride(nanoseconds: difference)
        }

        /// The instant `n` after this one (saturating).
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: Stride.saturatingSum(nanoseconds, n.magnitude))
        }

        /// `"t+<seconds>s"`.
        public var description: String { "t+\(Double(nanoseconds) / 1e9)s" }

        /// A virtual time interval in nanoseconds. Literals are seconds (`1`, `0.5`), as with
        /// Combine's Dispatch strides. Arithmetic saturates instead of trapping.
        ///
        /// Encodes (`Codable`) as its nanosecond count.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable, CustomStringConvertible
        {
            /// The interval in nanoseconds.
            public var magnitude: Int

            /// Zero nanoseconds.
            public static var zero: Stride { Stride(nanoseconds: 0) }

            /// An interval of `nanoseconds`.
            public init(nanoseconds: Int) { magnitude = nanoseconds }

            /// An interval of `value` seconds (saturating).
            public init(integerLiteral value: Int) {
                magnitude = Stride.saturatingProduct(value, 1_000_000_000)
            }

            /// An interval of `value` seconds, rounded to the nanosecond (saturating; NaN is zero).
            public init(floatLiteral value: Double) {
                let nanos = (value * 1e9).rounded()
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

            /// An interval of `source` seconds, if it fits.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                guard !overflow else { return nil }
                magnitude = nanos
            }

            /// Decodes the nanosecond count.
            public init(from decoder: any Decoder) throws {
                magnitude = try decoder.singleValueContainer().decode(Int.self)
            }

            /// Encodes the nanosecond count.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(magnitude)
            }

            static func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
                let (sum, overflow) = lhs.addingReportingOverflow(rhs)
                return overflow ? (rhs > 0 ? .max : .min) : sum
            }

            static func saturatingProduct(_ lhs: Int, _ rhs: Int) -> Int {
                let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
                return overflow ? ((lhs < 0) == (rhs < 0) ? .max : .min) : product
            }

            /// Orders intervals.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Adds intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: saturatingSum(lhs.magnitude, rhs.magnitude))
            }
            /// Subtracts intervals.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                rhs.magnitude == .min
                    ? Stride(nanoseconds: saturatingSum(saturatingSum(lhs.magnitude, .max), 1))
                    : Stride(nanoseconds: saturatingSum(lhs.magnitude, -rhs.magnitude))
            }
            /// Multiplies intervals (as nanosecond counts).
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: saturatingProduct(lhs.magnitude, rhs.magnitude))
            }
            /// Adds in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// An interval of `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(integerLiteral: s) }
            /// An interval of `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }
            /// An interval of `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(nanoseconds: saturatingProduct(ms, 1_000_000))
            }
            /// An interval of `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: saturatingProduct(us, 1_000)) }
            /// An interval of `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            /// `"<seconds>s"`.
            public var description: String { "\(Double(magnitude) / 1e9)s" }
        }
    }
}
