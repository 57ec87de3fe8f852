import Foundation

/// The entries the disk-cache crash test writes and checks: each value names its own key and
/// version and is otherwise pseudo-random bytes derived from both, so a reader can tell a
/// complete, correct value from a torn one or from another key's value.
///
/// Layout: 8 bytes key index, 8 bytes version, 8 bytes length of the rest, then the bytes.
public enum CrashPayload {
    /// The keys the writer uses.
    public static let keyCount = 40

    public static func key(_ index: Int) -> String { "https://example.com/crash/\(index).jpg" }

    /// The largest value length `make` supports.
    public static let maximumLength = 512 << 10

    /// 1 MiB of pseudo-random bytes, computed once; values are slices of it.
    private static let noise: [UInt8] = {
        var random = SplitMix64(seed: 0x5EED)
        let words = (0..<((2 * maximumLength) / 8)).map { _ in random.next() }
        return words.withUnsafeBytes { Array($0) }
    }()

    /// The value for `index` at `version`: the header, then `length` (at most
    /// ``maximumLength``) bytes whose position in the noise depends on index and version.
    public static func make(index: Int, version: UInt64, length: Int) -> Data {
        precondition(length >= 0 && length <= maximumLength)
        var data = Data(capacity: 24 + length)
        for field in [UInt64(index), version, UInt64(length)] {
            withUnsafeBytes(of: field.littleEndian) { data.append(contentsOf: $0) }
        }
        let offset = Int((UInt64(index) &* 7_919 &+ version) % UInt64(maximumLength))
        noise.withUnsafeBufferPointer {
            data.append(contentsOf: UnsafeBufferPointer(rebasing: $0[offset..<(offset + length)]))
        }
        return data
    }

    /// Whether `data` is exactly a value `make(index:version:length:)` produces for key `index`.
    public static func isValid(_ data: Data, forKey index: Int) -> Bool {
        guard data.count >= 24 else { return false }
        func field(_ n: Int) -> UInt64 {
            data.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: n * 8, as: UInt64.self)) }
        }
        guard field(0) == UInt64(index), field(2) == UInt64(data.count - 24), data.count - 24 <= maximumLength else {
            return false
        }
        return data == make(index: index, version: field(1), length: data.count - 24)
    }
}
