import Foundation
@testable import Imaging

/// How close a thumbnail is to its reference, in the measures BENCHMARKS.md reports: PSNR over
/// the RGBA bytes (premultiplied when asked, so that the colour of nearly transparent pixels,
/// which nobody sees, does not count), SSIM of the luma (8×8 windows, the usual constants), and edge energy (the
/// mean absolute difference between neighbouring pixels' luma, across and down), whose ratio to
/// the reference's says how much sharper (> 1) or softer (< 1) an image is.
struct ImageComparison {
    let psnr: Double
    let ssim: Double
    let edgeRatio: Double

    init(_ image: Image, reference: Image, premultiplied: Bool = false) {
        precondition(image.width == reference.width && image.height == reference.height)
        let format: PixelFormat = premultiplied ? .rgba8Premultiplied : .rgba8
        let (a, b) = (image.converted(to: format).packedBytes, reference.converted(to: format).packedBytes)
        var squared = 0.0
        for i in a.indices {
            let difference = Double(a[i]) - Double(b[i])
            squared += difference * difference
        }
        let mse = squared / Double(a.count)
        psnr = mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
        let (la, lb) = (Self.luma(a), Self.luma(b))
        ssim = Self.ssim(la, lb, width: image.width, height: image.height)
        let reference = Self.edgeEnergy(lb, width: image.width, height: image.height)
        edgeRatio = reference == 0 ? 1 : Self.edgeEnergy(la, width: image.width, height: image.height) / reference
    }

    private static func luma(_ rgba: [UInt8]) -> [Double] {
        stride(from: 0, to: rgba.count, by: 4).map { p -> Double in
            let (r, g, b) = (Double(rgba[p]), Double(rgba[p + 1]), Double(rgba[p + 2]))
            return 0.299 * r + 0.587 * g + 0.114 * b
        }
    }

    private static func edgeEnergy(_ luma: [Double], width: Int, height: Int) -> Double {
        guard width > 1, height > 1 else { return 0 }
        var sum = 0.0
        for y in 0..<(height - 1) {
            for x in 0..<(width - 1) {
                let p = luma[y * width + x]
                sum += abs(luma[y * width + x + 1] - p) + abs(luma[(y + 1) * width + x] - p)
            }
        }
        return sum / Double((width - 1) * (height - 1))
    }

    private static func ssim(_ a: [Double], _ b: [Double], width: Int, height: Int) -> Double {
        let c1: Double = (0.01 * 255) * (0.01 * 255)
        let c2: Double = (0.03 * 255) * (0.03 * 255)
        let window = min(8, width, height)
        var total = 0.0, count = 0
        for y0 in stride(from: 0, through: height - window, by: max(1, window / 2)) {
            for x0 in stride(from: 0, through: width - window, by: max(1, window / 2)) {
                var (ma, mb, va, vb, cov) = (0.0, 0.0, 0.0, 0.0, 0.0)
                let n = Double(window * window)
                for y in y0..<(y0 + window) {
                    for x in x0..<(x0 + window) { ma += a[y * width + x]; mb += b[y * width + x] }
                }
                ma /= n
                mb /= n
                for y in y0..<(y0 + window) {
                    for x in x0..<(x0 + window) {
                        let (da, db) = (a[y * width + x] - ma, b[y * width + x] - mb)
                        va += da * da; vb += db * db; cov += da * db
                    }
                }
                (va, vb, cov) = (va / n, vb / n, cov / n)
                total += (2 * ma * mb + c1) * (2 * cov + c2) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                count += 1
            }
        }
        return total / Double(count)
    }
}
