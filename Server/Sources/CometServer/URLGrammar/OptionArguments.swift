/// The arguments of one option in an `{options}` segment (`fill`, `256`, `256` in
/// `rs:fill:256:256`), as byte ranges of the segment: read on demand, no array per option.
///
/// Holds up to eight ranges, as many as any option takes; ``count`` still counts every argument,
/// so an option given more is refused by its count. Valid only while the segment's bytes are.
struct OptionArguments {
    /// The most arguments an option takes (`rs`: type, sides, enlarge, extend, a compass
    /// point and its two offsets).
    static let capacity = 8

    /// How many arguments the option was given.
    private(set) var count = 0
    private let bytes: UnsafeBufferPointer<UInt8>
    private var ranges:
        (Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (
            0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0
        )

    /// The `:`-separated arguments in `bytes[range]` (the option after its name, each argument
    /// after its `:`).
    init(_ bytes: UnsafeBufferPointer<UInt8>, after name: Int, upTo end: Int) {
        self.bytes = bytes
        var separator = name
        while separator < end {
            var next = separator + 1
            while next < end, bytes[next] != UInt8(ascii: ":") { next += 1 }
            switch count {
            case 0: ranges.0 = (separator + 1)..<next
            case 1: ranges.1 = (separator + 1)..<next
            case 2: ranges.2 = (separator + 1)..<next
            case 3: ranges.3 = (separator + 1)..<next
            case 4: ranges.4 = (separator + 1)..<next
            case 5: ranges.5 = (separator + 1)..<next
            case 6: ranges.6 = (separator + 1)..<next
            case 7: ranges.7 = (separator + 1)..<next
            default: break
            }
            count += 1
            separator = next
        }
    }

    /// Whether the option was given one argument, empty (`q:`): the option's default.
    var isOneEmptyArgument: Bool { count == 1 && ranges.0.isEmpty }

    /// Whether the argument at `index` is left out or empty: that argument's default.
    func isAbsentOrEmpty(_ index: Int) -> Bool { index >= count || self[index].isEmpty }

    /// The argument at `index` (below ``count`` and ``capacity``), as a string: a small string,
    /// no allocation, for any argument an option accepts.
    subscript(index: Int) -> String {
        let range =
            switch index {
            case 0: ranges.0
            case 1: ranges.1
            case 2: ranges.2
            case 3: ranges.3
            case 4: ranges.4
            case 5: ranges.5
            case 6: ranges.6
            default: ranges.7
            }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

extension [UInt8] {
    /// Appends `:` and an argument in its canonical spelling.
    mutating func appendArgument(_ text: String) {
        append(UInt8(ascii: ":"))
        ASCII.append(text, to: &self)
    }

    /// Appends `:` and a value ≥ 0 in decimal (as `String(value)` spells it).
    mutating func appendArgument(_ value: Int) {
        append(UInt8(ascii: ":"))
        ASCII.appendDecimal(value, to: &self)
    }
}
