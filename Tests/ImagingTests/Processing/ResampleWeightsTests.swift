import Foundation
import Testing
@testable import Imaging

/// The taps of one axis, checked against their definition computed the plain way (a list of
/// (pixel, weight) per output sample): for the area average, area overlap when shrinking;
/// Lanczos3 (`sinc(x)·sinc(x/3)`, stretched by the shrink factor) otherwise, its taps beyond the
/// edge dropped; area taps clamped to the edge and merged, weights quantised to 14 bits summing to exactly 1 << 14
/// (the rounding error given to the largest, the first of equals), zero taps trimmed.
@Suite struct ResampleWeightsTests {
    @Test(
        arguments: [
            (1024, 0.0, 1024.0, 256), (512, 64.0, 384.0, 256), (97, 0.0, 97.0, 31), (13, 0.0, 13.0, 40),
            (1, 0.0, 1.0, 7), (5, 0.0, 5.0, 5), (1000, 0.3, 999.4, 3), (120, 10.25, 77.5, 50), (61, 0.0, 61.0, 31),
            (8000, 0.0, 8000.0, 256), (7, -0.5, 8.0, 16),
        ], ImageProcessors.Resize.Filter.allCases)
    func theTapsAreTheirDefinition(axis: (Int, Double, Double, Int), filter: ImageProcessors.Resize.Filter) {
        let (length, origin, extent, output) = axis
        let taps = ResampleWeights(
            sourceLength: length, origin: origin, extent: extent, outputLength: output, filter: filter)
        let expected = Self.definition(
            sourceLength: length, origin: origin, extent: extent, outputLength: output, filter: filter)
        for i in 0..<output {
            let weights = (0..<taps.counts[i]).map { taps.weights[i * taps.maxTaps + $0] }
            #expect(taps.starts[i] == expected[i].start, "sample \(i)")
            #expect(weights == expected[i].weights, "sample \(i)")
            #expect(weights.reduce(0, +) == 1 << 14, "sample \(i)")
        }
    }

    private static func definition(
        sourceLength: Int, origin: Double, extent: Double, outputLength: Int, filter: ImageProcessors.Resize.Filter
    ) -> [(start: Int, weights: [Int32])] {
        let step = extent / Double(outputLength)
        return (0..<outputLength).map { i in
            var list: [(index: Int, weight: Double)] = []
            if filter == .areaAverage && step > 1 {
                let a = origin + Double(i) * step, b = a + step
                var j = Int(a.rounded(.down))
                while Double(j) < b {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    if overlap > 1e-9 { list.append((j, overlap)) }
                    j += 1
                }
            } else {
                let centre = origin + (Double(i) + 0.5) * step - 0.5
                let scale = max(step, 1)
                for j in Int((centre - 3 * scale).rounded(.down))...Int((centre + 3 * scale).rounded(.up)) {
                    let x = (Double(j) - centre) / scale
                    let weight = x == 0 ? 1 : abs(x) < 3 ? sin(.pi * x) * sin(.pi * x / 3) / (.pi * x * .pi * x / 3) : 0
                    if weight != 0 && j >= 0 && j < sourceLength { list.append((j, weight)) }
                }
            }
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
            let total = merged.reduce(0) { $0 + $1.weight }
            var quantised = merged.map { Int(($0.weight / total * Double(1 << 14)).rounded()) }
            let largest = quantised.indices.max { quantised[$0] < quantised[$1] }!
            quantised[largest] += (1 << 14) - quantised.reduce(0, +)
            var lo = 0, hi = quantised.count
            while lo < hi - 1, quantised[lo] == 0 { lo += 1 }
            while hi - 1 > lo, quantised[hi - 1] == 0 { hi -= 1 }
            return (merged[lo].index, quantised[lo..<hi].map { Int32($0) })
        }
    }
}
