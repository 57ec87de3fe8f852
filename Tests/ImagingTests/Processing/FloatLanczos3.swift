import Foundation
@testable import Imaging

/// The reference the resize is measured against, written plainly and independently of
/// `ResampleWeights` and the C kernels: a separable Lanczos3 (`sinc(x)·sinc(x/3)`, stretched by
/// the shrink factor) in `Double`, on premultiplied colour, over a full-size decode, its taps
/// beyond the image's edge dropped and the rest renormalised (as Pillow's `LANCZOS` does). The result is the straight-alpha image rounded to bytes.
enum FloatLanczos3 {
    /// The centred fill-and-crop of `image` to `width` × `height` (the source region of the
    /// target's shape at the larger scale, as `.aspectFill` with `crop` frames it).
    static func fill(_ image: Image, width: Int, height: Int) -> Image {
        let (w, h) = (Double(image.width), Double(image.height))
        let scale = max(Double(width) / w, Double(height) / h)
        let (rw, rh) = (Double(width) / scale, Double(height) / scale)
        return resample(image, x: (w - rw) / 2, y: (h - rh) / 2, width: rw, height: rh, to: (width, height))
    }

    /// `[x, x + width) × [y, y + height)` of `image` resampled to `size`.
    static func resample(
        _ image: Image, x: Double, y: Double, width: Double, height: Double, to size: (width: Int, height: Int)
    ) -> Image {
        let source = premultiplied(image)
        let columns = taps(length: image.width, origin: x, extent: width, count: size.width)
        let rows = taps(length: image.height, origin: y, extent: height, count: size.height)
        // Horizontal pass over every source row, then vertical.
        var across = [Double](repeating: 0, count: image.height * size.width * 4)
        for sy in 0..<image.height {
            for (ox, taps) in columns.enumerated() {
                for c in 0..<4 {
                    var sum = 0.0
                    for (index, weight) in taps { sum += source[(sy * image.width + index) * 4 + c] * weight }
                    across[(sy * size.width + ox) * 4 + c] = sum
                }
            }
        }
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for (oy, taps) in rows.enumerated() {
            for ox in 0..<size.width {
                var pixel = [0.0, 0.0, 0.0, 0.0]
                for c in 0..<4 {
                    for (index, weight) in taps { pixel[c] += across[(index * size.width + ox) * 4 + c] * weight }
                }
                let alpha = min(max(pixel[3], 0), 1)
                for c in 0..<3 {
                    let straight = alpha > 0 ? min(max(pixel[c], 0), alpha) / alpha : 0
                    bytes[(oy * size.width + ox) * 4 + c] = UInt8((straight * 255).rounded())
                }
                bytes[(oy * size.width + ox) * 4 + 3] = UInt8((alpha * 255).rounded())
            }
        }
        return Image(width: size.width, height: size.height, isOpaque: image.isOpaque, bytes: bytes)
    }

    static func kernel(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        return sin(.pi * x) / (.pi * x) * sin(.pi * x / 3) / (.pi * x / 3)
    }

    /// Each output sample's (source index, weight) list, weights summing to 1.
    private static func taps(length: Int, origin: Double, extent: Double, count: Int) -> [[(Int, Double)]] {
        let step = extent / Double(count)
        let scale = max(step, 1)
        return (0..<count).map { i in
            let centre = origin + (Double(i) + 0.5) * step - 0.5
            var list: [(Int, Double)] = []
            for j in Int((centre - 3 * scale).rounded(.down))...Int((centre + 3 * scale).rounded(.up)) {
                let weight = kernel((Double(j) - centre) / scale)
                if weight != 0 && j >= 0 && j < length { list.append((j, weight)) }
            }
            let total = list.reduce(0) { $0 + $1.1 }
            return list.map { ($0.0, $0.1 / total) }
        }
    }

    /// Channels in 0...1, colour multiplied by alpha.
    private static func premultiplied(_ image: Image) -> [Double] {
        let bytes = image.converted(to: .rgba8).packedBytes
        var values = [Double](repeating: 0, count: bytes.count)
        for p in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = Double(bytes[p + 3]) / 255
            for c in 0..<3 { values[p + c] = Double(bytes[p + c]) / 255 * alpha }
            values[p + 3] = alpha
        }
        return values
    }
}
