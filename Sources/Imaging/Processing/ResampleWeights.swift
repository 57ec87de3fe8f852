/// Precomputed fixed-point filter taps for resampling one axis.
///
/// Output sample `i` covers the source interval `[origin + i·step, origin + (i+1)·step)` with
/// `step = extent / outputLength`. When shrinking (`step > 1`) each source pixel weighs as much
/// as its overlap with that interval: exact area averaging, no aliasing. When enlarging, the
/// taps are those of a triangle (bilinear) filter centred on the output sample. Taps outside the
/// source are clamped to its edge. Weights are integers summing to exactly `1 << bits`, so a
/// constant signal stays exactly constant.
struct ResampleWeights {
    /// Fixed-point precision of the weights.
    static let bits: Int32 = 14

    /// First source index of each output sample.
    private(set) var starts: [Int]
    /// Number of taps of each output sample.
    private(set) var counts: [Int]
    /// Weights, `maxTaps` slots per output sample (unused slots are 0).
    private(set) var weights: [Int32]
    /// Slots per output sample in ``weights``.
    let maxTaps: Int

    /// The smallest and one past the largest source index any tap reads.
    var usedRange: Range<Int> {
        var lo = Int.max, hi = Int.min
        for i in starts.indices {
            lo = min(lo, starts[i])
            hi = max(hi, starts[i] + counts[i])
        }
        return lo..<hi
    }

    /// Computes the taps mapping `[origin, origin + extent)` of a source `sourceLength` long to
    /// `outputLength` samples.
    init(sourceLength: Int, origin: Double, extent: Double, outputLength: Int) {
        precondition(sourceLength > 0 && outputLength > 0 && extent > 0)
        let step = extent / Double(outputLength)
        var taps: [[(index: Int, weight: Double)]] = []
        taps.reserveCapacity(outputLength)
        for i in 0..<outputLength {
            var list: [(index: Int, weight: Double)] = []
            if step > 1 {
                // Area average: overlap of [j, j+1) with [a, b).
                let a = origin + Double(i) * step, b = a + step
                var j = Int(a.rounded(.down))
                while Double(j) < b {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    if overlap > 1e-9 { list.append((j, overlap)) }
                    j += 1
                }
            } else {
                // Triangle: linear interpolation between the two nearest pixel centres.
                let p = origin + (Double(i) + 0.5) * step - 0.5
                let j = Int(p.rounded(.down))
                let f = p - Double(j)
                if 1 - f > 1e-9 { list.append((j, 1 - f)) }
                if f > 1e-9 { list.append((j + 1, f)) }
            }
            // Clamp to the edge, merging taps that land on the same pixel.
            var merged: [(index: Int, weight: Double)] = []
            for tap in list {
                let k = min(max(tap.index, 0), sourceLength - 1)
                if let last = merged.last, last.index == k {
                    merged[merged.count - 1].weight += tap.weight
                } else {
                    merged.append((k, tap.weight))
                }
            }
            if merged.isEmpty { merged = [(min(max(Int(origin), 0), sourceLength - 1), 1)] }
            taps.append(merged)
        }
        let maxTaps = taps.map(\.count).max() ?? 1
        let one = 1 << Int(Self.bits)
        var starts = [Int](repeating: 0, count: outputLength)
        var counts = [Int](repeating: 0, count: outputLength)
        var weights = [Int32](repeating: 0, count: outputLength * maxTaps)
        for (i, list) in taps.enumerated() {
            let total = list.reduce(0) { $0 + $1.weight }
            var quantised = list.map { Int(($0.weight / total * Double(one)).rounded()) }
            // Make the sum exact by adjusting the largest weight.
            let largest = quantised.indices.max { quantised[$0] < quantised[$1] }!
            quantised[largest] += one - quantised.reduce(0, +)
            // Drop zero taps at either end.
            var lo = 0, hi = quantised.count
            while lo < hi - 1, quantised[lo] == 0 { lo += 1 }
            while hi - 1 > lo, quantised[hi - 1] == 0 { hi -= 1 }
            starts[i] = list[lo].index
            counts[i] = hi - lo
            for k in lo..<hi { weights[i * maxTaps + k - lo] = Int32(quantised[k]) }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.maxTaps = maxTaps
    }

    /// Moves every start index by `delta` (after cropping the source).
    mutating func shift(by delta: Int) {
        for i in starts.indices { starts[i] += delta }
    }
}
