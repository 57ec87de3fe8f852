import Foundation
@testable import Imaging

/// Straightforward double-precision versions of the effects, for tests to compare against: each
/// follows its definition pixel by pixel, with none of the processors' tables, fixed point or
/// buffering.
enum EffectReferences {
    /// A true separable Gaussian of standard deviation `sigma` (kernel ±4σ, normalised, edges
    /// extended) over the stored bytes, all four channels.
    static func gaussian(_ image: Image, sigma: Double) -> [Double] {
        let (w, h) = (image.width, image.height)
        let radius = Int((4 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let input = image.packedBytes.map(Double.init)
        var pass = [Double](repeating: 0, count: input.count)
        var output = pass
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var s = 0.0
                    for k in -radius...radius {
                        s += kernel[k + radius] * input[(y * w + min(max(x + k, 0), w - 1)) * 4 + c]
                    }
                    pass[(y * w + x) * 4 + c] = s
                }
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var s = 0.0
                    for k in -radius...radius {
                        s += kernel[k + radius] * pass[(min(max(y + k, 0), h - 1) * w + x) * 4 + c]
                    }
                    output[(y * w + x) * 4 + c] = s
                }
            }
        }
        return output
    }

    /// The largest difference between two byte arrays of the same length.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count)
        return zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
