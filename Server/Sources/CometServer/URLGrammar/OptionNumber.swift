/// The decimal numbers of option arguments (`0.5`, `-20`, `1.25`): how they are read and how
/// their canonical spelling is written.
///
/// Only plain decimals are read (an optional `-`, digits, an optional `.` and digits): no
/// exponent, `inf` or `nan`, which a URL builder never means. Values are rounded to four
/// decimal places, so that every value read has one spelling, and that spelling reads back as
/// the same value (the canonical form's promise).
enum OptionNumber {
    /// The decimal places kept.
    private static let scale = 10_000.0

    /// The plain decimal in `text`, rounded to four places, or `nil` when `text` is not one
    /// (or is longer than 16 bytes, more than any meaningful argument).
    static func decimal(_ text: String) -> Double? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var digits = 0
        var dots = 0
        for (index, byte) in bytes.enumerated() {
            if ASCII.isDigit(byte) {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                dots += 1
            } else if byte != UInt8(ascii: "-") || index != 0 {
                return nil
            }
        }
        guard digits > 0, dots <= 1, let value = Double(text) else { return nil }
        let rounded = (value * scale).rounded() / scale
        return rounded == 0 ? 0 : rounded
    }

    /// The whole number in `text` (an optional `-` and up to nine digits), or `nil`.
    static func integer(_ text: String) -> Int? {
        let bytes = text.utf8
        guard bytes.count <= 10, let value = Int(text),
            bytes.allSatisfy({ ASCII.isDigit($0) || $0 == UInt8(ascii: "-") })
        else { return nil }
        return value
    }

    /// `value`'s canonical spelling: an integer without a fraction (`2`, `-10`), else the
    /// shortest decimal that reads back as it (`0.25`).
    static func spelling(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        // Swift writes an exponent only below 1e-4, which a value rounded to four places never is.
        return value.description
    }
}

extension [UInt8] {
    /// Appends `:` and a decimal number in its canonical spelling (``OptionNumber/spelling(_:)``).
    mutating func appendArgument(_ value: Double) {
        appendArgument(OptionNumber.spelling(value))
    }
}
