import CImageKernels
import Foundation

/// Precomputed fixed-point filter taps for resampling one axis.
///
/// Output sample `i` covers the source interval `[origin + i·step, origin + (i+1)·step)` with
/// `step = extent / outputLength`, centred on `origin + (i + ½)·step`. With the Lanczos3 filter
/// each source pixel weighs `L(d / s)`, `d` its distance from that centre, `s = max(step, 1)`
/// and `L(x) = sinc(x)·sinc(x/3)` for `|x| < 3` (so `6s` taps when shrinking, 6 when
/// enlarging); weights are signed. With the area average, shrinking (`step > 1`) weighs each
/// source pixel as much as its overlap with the interval (exact area averaging, no negative
/// weight), and enlarging takes Lanczos3's taps. Lanczos3 taps outside the source are dropped
/// (as Pillow does); area taps outside it are clamped to its edge and merged. A `sharpening` `a`
/// (Lanczos3 only) convolves the kernel with the taps (−a, 1 + 2a, −a), two taps more, to undo
/// a reduced decode's softness (``DecodeReduction/sharpening``). Weights are integers summing to exactly
/// `1 << bits`, so a constant signal stays exactly constant.
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

    /// Whether every weight is non-negative (what `cik_resample_rgba8` requires).
    let isNonNegative: Bool

    /// Computes the taps mapping `[origin, origin + extent)` of a source `sourceLength` long to
    /// `outputLength` samples with `filter` (and Lanczos3's `sharpening`).
    init(
        sourceLength: Int, origin: Double, extent: Double, outputLength: Int,
        filter: ImageProcessors.Resize.Filter = .areaAverage, sharpening: Double = 0
    ) {
        precondition(sourceLength > 0 && outputLength > 0 && extent > 0)
        let step = extent / Double(outputLength)
        let averages = filter == .areaAverage && step > 1
        let scale = max(step, 1)
        let sharpening = averages ? 0 : sharpening
        let radius = 3 * max(step, 1) + (sharpening > 0 ? 1 : 0)
        // Flat buffers, `capacity` slots per output sample (an interval `step` long overlaps at
        // most ⌈step⌉ + 1 source pixels; Lanczos3 reads at most ⌊2·radius⌋ + 1): a resize makes
        // these for every image, and per-sample arrays cost more than the taps' arithmetic.
        let capacity = averages ? Int(step.rounded(.up)) + 1 : Int((2 * radius).rounded(.down)) + 2
        var tapIndices = [Int](repeating: 0, count: outputLength * capacity)
        var tapWeights = [Double](repeating: 0, count: outputLength * capacity)
        var tapCounts = [Int](repeating: 0, count: outputLength)
        for i in 0..<outputLength {
            let base = i * capacity
            var n = 0
            // Appends a tap, clamped to the edge, merged with the previous one when both land
            // on the same pixel.
            func append(_ index: Int, _ weight: Double) {
                let k = min(max(index, 0), sourceLength - 1)
                if n > 0, tapIndices[base + n - 1] == k {
                    tapWeights[base + n - 1] += weight
                } else {
                    tapIndices[base + n] = k
                    tapWeights[base + n] = weight
                    n += 1
                }
            }
            if averages {
                // Area average: overlap of [j, j+1) with [a, b).
                let a = origin + Double(i) * step, b = a + step
                var j = Int(a.rounded(.down))
                while Double(j) < b {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    if overlap > 1e-9 { append(j, overlap) }
                    j += 1
                }
            } else {
                // Lanczos3 around the sample's centre, in pixel-centre coordinates.
                let centre = origin + (Double(i) + 0.5) * step - 0.5
                let first = Int((centre - radius).rounded(.up)), last = Int((centre + radius).rounded(.down))
                // Each kernel value once (a sharpened tap also reads its neighbours'): a resize
                // makes these for every image, and the sines are most of their cost.
                var previous = Self.lanczos3((Double(first - 1) - centre) / scale)
                var current = Self.lanczos3((Double(first) - centre) / scale)
                for j in first...last {
                    let next = Self.lanczos3((Double(j + 1) - centre) / scale)
                    let weight =
                        sharpening > 0 ? (1 + 2 * sharpening) * current - sharpening * (previous + next) : current
                    // Taps beyond the edge are dropped (the rest renormalised below): repeating
                    // the edge pixel instead would give it the weight of every tap past it,
                    // which for a large reduction is most of the kernel's outer lobes.
                    if weight != 0 && j >= 0 && j < sourceLength { append(j, weight) }
                    (previous, current) = (current, next)
                }
            }
            if n == 0 { append(Int(origin), 1) }
            tapCounts[i] = n
        }
        let maxTaps = tapCounts.max() ?? 1
        let one = 1 << Int(Self.bits)
        var starts = [Int](repeating: 0, count: outputLength)
        var counts = [Int](repeating: 0, count: outputLength)
        var weights = [Int32](repeating: 0, count: outputLength * maxTaps)
        var quantised = [Int](repeating: 0, count: capacity)
        for i in 0..<outputLength {
            let base = i * capacity, n = tapCounts[i]
            var total = 0.0
            for k in 0..<n { total += tapWeights[base + k] }
            var sum = 0, largest = 0
            for k in 0..<n {
                quantised[k] = Int((tapWeights[base + k] / total * Double(one)).rounded())
                sum += quantised[k]
                if quantised[k] > quantised[largest] { largest = k }
            }
            // Make the sum exact by adjusting the largest weight (the first of equals).
            quantised[largest] += one - sum
            // Drop zero taps at either end.
            var lo = 0, hi = n
            while lo < hi - 1, quantised[lo] == 0 { lo += 1 }
            while hi - 1 > lo, quantised[hi - 1] == 0 { hi -= 1 }
            starts[i] = tapIndices[base + lo]
            counts[i] = hi - lo
            for k in lo..<hi { weights[i * maxTaps + k - lo] = Int32(quantised[k]) }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.maxTaps = maxTaps
        self.isNonNegative = !weights.contains { $0 < 0 }
    }

    /// `sinc(x)·sinc(x/3)` for `|x| < 3`, else 0.
    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < 3 else { return 0 }
        let a = Double.pi * x
        // One sine: sin(a) = sin(a/3)·(3 − 4·sin²(a/3)).
        let third = sin(a / 3)
        return 3 * third * third * (3 - 4 * third * third) / (a * a)
    }

    /// Moves every start index by `delta` (after cropping the source).
    mutating func shift(by delta: Int) {
        for i in starts.indices { starts[i] += delta }
    }

    /// Calls `body` with the taps as `CImageKernels` takes them (the pointers are valid only
    /// during the call).
    func withTaps<Result>(_ body: (cik_axis_taps) -> Result) -> Result {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                weights.withUnsafeBufferPointer { weights in
                    body(
                        cik_axis_taps(
                            starts: starts.baseAddress, counts: counts.baseAddress,
                            weights: weights.baseAddress, max_taps: maxTaps))
                }
            }
        }
    }
}
