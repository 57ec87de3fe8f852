/// Percent-decoding of a path segment over its UTF-8 bytes (what Foundation's
/// `removingPercentEncoding` does, without bridging).
///
/// Thread-safe (stateless).
enum PercentDecoding {
    /// `text` with its `%XX` escapes decoded; `text` itself when it holds no escape, when a `%`
    /// does not start one, or when the decoded bytes are not UTF-8.
    static func decoded(_ text: String) -> String {
        var contiguous = text
        guard contiguous.withUTF8({ $0.contains(UInt8(ascii: "%")) }) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let first = iterator.next(), let second = iterator.next(),
                case let high = ASCII.hexValue(first), case let low = ASCII.hexValue(second),
                high != ASCII.notHex, low != ASCII.notHex
            else { return text }
            output.append(high << 4 | low)
        }
        return String(validating: output, as: UTF8.self) ?? text
    }
}
