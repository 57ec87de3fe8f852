import CImageKernels
import Testing
@testable import Imaging

/// The resampler's C kernels (SSE2 on x86-64, and AVX2 for Lanczos3 where the CPU has it) give exactly the bytes of their integer arithmetic
/// written out plainly, with 14-bit weights. The area average's: a vertical pass into 16-bit
/// rows, `(Σ pixel·w + 32) >> 6`, then a horizontal pass, `(2²¹ + Σ row·w) >> 22`. Lanczos3's
/// (signed weights): `(Σ pixel·w + 128) >> 8` into signed 16-bit rows, then
/// `(2¹⁹ + Σ row·w) >> 20` clamped to 0...255. Checked on noise (every byte value, every lane) at
/// shrinking, enlarging and odd factors, widths that leave a tail after the 32- and 16-byte
/// steps, and odd and even tap counts, with each level of vector instructions the CPU has
/// (portable C, SSE2, the best).
@Suite struct ResamplerKernelTests {
    @Test(
        arguments: [
            (384, 384, 256, 256),  // the 1.5× of a 1024×768 photo decoded at 1/2 for a 256² fill
            (97, 61, 31, 31),  // 3.1× and 2×
            (1024, 3, 7, 2),  // a wide shrink: many taps per output pixel
            (13, 9, 40, 27),  // enlarging
            (5, 5, 5, 5),  // one tap each
            (33, 17, 20, 11),  // 33 pixels: 132 bytes, a tail of 4 after the 32- and 16-byte steps
            (14, 40, 5, 9),  // 56 bytes: one 32-byte step, one of 16, a tail of 8
        ], ImageProcessors.Resize.Filter.allCases)
    func theKernelMatchesItsArithmeticByteForByte(size: (Int, Int, Int, Int), filter: ImageProcessors.Resize.Filter) {
        let (width, height, outputWidth, outputHeight) = size
        let source = Self.noise(width: width, height: height)
        let rect = Resampler.SourceRect(x: 0, y: 0, width: Double(width), height: Double(height))
        let expected = Self.plainResample(source, width: outputWidth, height: outputHeight, filter: filter)
        for simd in [CIK_SIMD_NONE, CIK_SIMD_SSE2, CIK_SIMD_BEST] {
            let output = Resampler.resample(
                source, rect: rect, width: outputWidth, height: outputHeight, filter: filter, simd: simd)
            #expect(output.width == outputWidth && output.height == outputHeight)
            let bytes = output.withUnsafeBytes { buffer in
                (0..<outputHeight).flatMap { y in
                    Array(buffer[(y * output.bytesPerRow)..<(y * output.bytesPerRow + outputWidth * 4)])
                }
            }
            #expect(bytes == expected, "vector level \(simd.rawValue)")
        }
    }

    @Test(arguments: ImageProcessors.Resize.Filter.allCases)
    func aFractionalSourceRectangleMatchesItsArithmetic(filter: ImageProcessors.Resize.Filter) {
        let source = Self.noise(width: 120, height: 90)
        let rect = Resampler.SourceRect(x: 10.25, y: 3.5, width: 77.5, height: 60.75)
        let output = Resampler.resample(source, rect: rect, width: 50, height: 41, filter: filter)
        let expected = Self.plainResample(source, rect: rect, width: 50, height: 41, filter: filter)
        let bytes = output.withUnsafeBytes { buffer in
            (0..<41).flatMap { y in Array(buffer[(y * output.bytesPerRow)..<(y * output.bytesPerRow + 50 * 4)]) }
        }
        #expect(bytes == expected)
    }

    // MARK: The arithmetic, written out

    /// Opaque noise (so the resampler takes no premultiplying step, and the box downsampler
    /// does not apply to these non-whole factors): every channel byte a pseudo-random value.
    private static func noise(width: Int, height: Int) -> Image {
        var state: UInt32 = 0x9E37_79B9 &* UInt32(width * 31 + height)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in bytes.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[index] = index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 24)
        }
        return Image(width: width, height: height, pixelFormat: .rgba8, isOpaque: true, bytes: bytes)
    }

    private static func plainResample(
        _ image: Image, rect: Resampler.SourceRect? = nil, width: Int, height: Int,
        filter: ImageProcessors.Resize.Filter
    ) -> [UInt8] {
        let rect = rect ?? Resampler.SourceRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let xw = ResampleWeights(
            sourceLength: image.width, origin: rect.x, extent: rect.width, outputLength: width, filter: filter)
        let yw = ResampleWeights(
            sourceLength: image.height, origin: rect.y, extent: rect.height, outputLength: height, filter: filter)
        // The area average's kernel takes only non-negative weights; anything else is Lanczos3's.
        let signed = !(xw.isNonNegative && yw.isNonNegative)
        let (rowShift, outputShift): (Int32, Int32) = signed ? (8, 20) : (6, 22)
        var output = [UInt8](repeating: 0, count: width * height * 4)
        image.withUnsafeBytes { source in
            for oy in 0..<height {
                var row = [Int32](repeating: 0, count: image.width * 4)
                for i in row.indices {
                    var sum: Int32 = 0
                    for k in 0..<yw.counts[oy] {
                        sum +=
                            Int32(source[(yw.starts[oy] + k) * image.bytesPerRow + i]) * yw.weights[oy * yw.maxTaps + k]
                    }
                    row[i] = (sum + (1 << (rowShift - 1))) >> rowShift
                }
                for ox in 0..<width {
                    for channel in 0..<4 {
                        var sum: Int32 = 1 << (outputShift - 1)
                        for t in 0..<xw.counts[ox] {
                            sum += row[(xw.starts[ox] + t) * 4 + channel] * xw.weights[ox * xw.maxTaps + t]
                        }
                        output[(oy * width + ox) * 4 + channel] = UInt8(min(max(sum >> outputShift, 0), 255))
                    }
                }
            }
        }
        return output
    }
}
