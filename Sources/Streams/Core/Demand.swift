extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the
    /// subscription.
    ///
    /// A demand is either `.unlimited` or `.max(n)` with `n >= 0`. All arithmetic saturates:
    /// anything that reaches or overflows past `Int.max` becomes `.unlimited`, `.unlimited` stays
    /// `.unlimited` under addition, subtraction and multiplication, and results below zero become
    /// `.none`.
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// `Int.max + 1` encodes `.unlimited`; every other value is a finite count.
        @usableFromInline let rawValue: UInt

        @inlinable static var unlimitedRaw: UInt { UInt(Int.max) + 1 }

        @inlinable init(rawValue: UInt) {
            self.rawValue = Swift.min(rawValue, Demand.unlimitedRaw)
        }

        /// A request for as many values as the publisher can produce.
        @inlinable public static var unlimited: Demand { Demand(rawValue: unlimitedRaw) }

        /// A request for no elements from the publisher. Equivalent to `.max(0)`.
        @inlinable public static var none: Demand { Demand(rawValue: 0) }

        /// Creates a demand for the given maximum number of elements. `value` must not be negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "Demand cannot be negative")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` if the demand is `.unlimited`.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRaw ? nil : Int(rawValue)
        }

        /// `"unlimited"` or `"max(n)"`.
        public var description: String {
            if let max { return "max(\(max))" }
            return "unlimited"
        }

        /// Adds two demands; saturates at `.unlimited`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : Demand(rawValue: sum)
        }

        /// Adds a number of elements to a demand; a negative number subtracts.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            rhs < 0 ? lhs - Demand(rawValue: rhs.magnitude) : lhs + Demand(rawValue: UInt(rhs))
        }

        /// Adds to a demand in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Adds a number of elements to a demand in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Subtracts one demand from another. `.unlimited - x` is `.unlimited`; `x - .unlimited`
        /// (for finite `x`) and any negative result are `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.rawValue == unlimitedRaw { return .unlimited }
            if rhs.rawValue >= lhs.rawValue { return .none }
            return Demand(rawValue: lhs.rawValue - rhs.rawValue)
        }

        /// Subtracts a number of elements from a demand; a negative number adds. `.unlimited`
        /// stays `.unlimited`; as in Combine, a result below zero or past `Int.max` (subtracting
        /// a negative number) is `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let max = lhs.max else { return .unlimited }
            let (difference, overflow) = max.subtractingReportingOverflow(rhs)
            return overflow || difference < 0 ? .none : Demand(rawValue: UInt(difference))
        }

        /// Subtracts in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// Subtracts a number of elements in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        /// Multiplies a demand by a count. `.unlimited` stays `.unlimited`; overflow gives
        /// `.unlimited`; a negative or zero factor gives `.none`.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs.rawValue == unlimitedRaw { return .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies in place.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        /// Orders demands; `.unlimited` is greater than every finite demand.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// `true` when the demand is finite and equal to `rhs`.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue == UInt(rhs)
        }

        /// `true` when the demand is unlimited or not equal to `rhs`.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool {
            !(lhs == rhs)
        }

        /// `true` when `rhs` equals the finite demand `lhs`.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool {
            rhs == lhs
        }

        /// `true` when `lhs` does not equal the demand `rhs`.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool {
            !(rhs == lhs)
        }

        /// Compares a demand with a count; `.unlimited` is greater than every count.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            rhs > 0 && lhs.rawValue < UInt(rhs)
        }

        /// Compares a demand with a count; `.unlimited` is greater than every count.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue <= UInt(rhs)
        }

        /// Compares a demand with a count; `.unlimited` is greater than every count.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            !(lhs <= rhs)
        }

        /// Compares a demand with a count; `.unlimited` is greater than every count.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool {
            !(lhs < rhs)
        }

        /// Compares a count with a demand; every count is less than `.unlimited`.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool {
            rhs > lhs
        }

        /// Compares a count with a demand; every count is less than `.unlimited`.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool {
            rhs >= lhs
        }

        /// Compares a count with a demand; every count is less than `.unlimited`.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool {
            rhs < lhs
        }

        /// Compares a count with a demand; every count is less than `.unlimited`.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool {
            rhs <= lhs
        }

        /// Decodes a demand from its raw count (`Int.max + 1` for unlimited).
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.init(rawValue: try container.decode(UInt.self))
        }

        /// Encodes the demand as its raw count (`Int.max + 1` for unlimited).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
