/// Byte classes and conversions for URL handling over UTF-8, by arithmetic on ASCII (no table,
/// so no lazy global to check per byte): what a request's URL path needs, without Unicode
/// properties or Foundation.
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
    static func hexValue(_ byte: UInt8) -> UInt8 {
        if byte &- UInt8(ascii: "0") < 10 { return byte &- UInt8(ascii: "0") }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return letter < 6 ? letter + 10 : notHex
    }

    /// Whether the byte is an ASCII letter or digit.
    @inline(__always)
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// Whether the byte is unreserved in a URL (RFC 3986: `A–Z a–z 0–9 - . _ ~`).
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    /// Whether a path or query may hold the byte unencoded: unreserved, or `!$&'()*+,;=:@/?`.
    @inline(__always)
    static func mayStandRaw(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    /// Whether a (lower-cased) host name may hold the byte: `a–z 0–9 - _ .`.
    @inline(__always)
    static func isHostCharacter(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26 || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".")
    }

    /// Whether `bytes` are `other`'s bytes (compared in place: no string is made).
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
        guard bytes.count == other.count else { return false }
        for index in 0..<other.count where bytes[index] != other[index] { return false }
        return true
    }

    /// Appends `%` and the byte in two upper-case hex digits.
    static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigit(byte >> 4, letterBase: UInt8(ascii: "A")))
        output.append(hexDigit(byte & 15, letterBase: UInt8(ascii: "A")))
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
        output.append(hexDigit(byte >> 4, letterBase: UInt8(ascii: "a")))
        output.append(hexDigit(byte & 15, letterBase: UInt8(ascii: "a")))
    }

    /// The lower-case hex digit of a nibble (0–15).
    @inline(__always)
    static func lowerHexDigit(_ nibble: UInt8) -> UInt8 {
        hexDigit(nibble, letterBase: UInt8(ascii: "a"))
    }

    /// The digit of a nibble, its letters counted from `letterBase` (`a` or `A`).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8, letterBase: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : letterBase + nibble - 10
    }
}
