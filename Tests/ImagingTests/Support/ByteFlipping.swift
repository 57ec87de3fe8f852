import CometTestSupport
import Foundation

/// Decodes `count` copies of each file in `files`, each with four random bytes flipped (within
/// the first `prefix` bytes when given), through `decode`; errors are expected and ignored: what
/// is checked is that nothing crashes. Deterministic for a `seed`.
func decodeWithFlippedBytes(
    _ files: [Data], count: Int, seed: UInt64, prefix: Int? = nil, decode: (Data) throws -> Void
) {
    var random = SplitMix64(seed: seed)
    for original in files {
        let range = UInt64(min(original.count, prefix ?? original.count))
        for _ in 0..<count {
            var data = original
            for _ in 0..<4 {
                let index = Int(random.next() % range)
                data[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            _ = try? decode(data)
        }
    }
}
