/// Byte classes and conversions for URL handling over UTF-8, from 256-entry tables: what a
/// request's URL path needs, without Unicode properties or Foundation.
///
/// Thread-safe (stateless).
enum ASCII {
    /// ``hexValue(_:)`` of a byte that is not a hex digit.
    static let notHex: UInt8 = 0xFF

    /// The byte, upper-case ASCII letters made lower-case.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// Whether the byte is `0`–`9`.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The value of a hex digit (either case), or ``notHex``.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8 { hexValues[Int(byte)] }

    /// Whether the byte is unreserved in a URL (RFC 3986: `A–Z a–z 0–9 - . _ ~`).
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool { classes[Int(byte)] & unreservedClass != 0 }

    /// Whether a path or query may hold the byte unencoded: unreserved, or `!$&'()*+,;=:@/?`.
    @inline(__always)
    static func mayStandRaw(_ byte: UInt8) -> Bool { classes[Int(byte)] & rawClass != 0 }

    /// Whether a (lower-cased) host name may hold the byte: `a–z 0–9 - _ .`.
    @inline(__always)
    static func isHostCharacter(_ byte: UInt8) -> Bool { classes[Int(byte)] & hostClass != 0 }

    /// Appends `%` and the byte in two upper-case hex digits.
    static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(upperHexDigits[Int(byte >> 4)])
        output.append(upperHexDigits[Int(byte & 15)])
    }

    /// Appends the UTF-8 bytes of `text` in one copy (appending its `utf8` view goes byte by
    /// byte).
    static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    /// Appends the decimal digits of a value ≥ 0.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends the byte in two lower-case hex digits.
    @inline(__always)
    static func appendLowerHex(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(lowerHexDigits[Int(byte >> 4)])
        output.append(lowerHexDigits[Int(byte & 15)])
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)
    private static let lowerHexDigits = Array("0123456789abcdef".utf8)

    private static let unreservedClass: UInt8 = 1
    private static let rawClass: UInt8 = 2
    private static let hostClass: UInt8 = 4

    private static let classes: [UInt8] = {
        var classes = [UInt8](repeating: 0, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8 {
            classes[Int(byte)] |= unreservedClass | rawClass
        }
        for byte in "!$&'()*+,;=:@/?".utf8 { classes[Int(byte)] |= rawClass }
        for byte in "abcdefghijklmnopqrstuvwxyz0123456789-_.".utf8 { classes[Int(byte)] |= hostClass }
        return classes
    }()

    private static let hexValues: [UInt8] = {
        var values = [UInt8](repeating: notHex, count: 256)
        for (index, byte) in "0123456789abcdef".utf8.enumerated() { values[Int(byte)] = UInt8(index) }
        for (index, byte) in "ABCDEF".utf8.enumerated() { values[Int(byte)] = UInt8(10 + index) }
        return values
    }()
}
