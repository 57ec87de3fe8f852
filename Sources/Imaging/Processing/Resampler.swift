import CImageKernels

/// Separable resampling of RGBA8 images with precomputed fixed-point weights.
///
/// The vertical pass runs first, one output row at a time: it blends the few source rows that
/// row needs, keeping extra bits of precision in a 16-bit row, then the horizontal pass blends
/// that row into the output row (both in `CImageKernels`, whose SSE2 paths multiply two taps per
/// instruction; Lanczos3's kernel also has AVX2 paths, four taps per instruction, taken when the
/// CPU has AVX2). Non-negative weights (an area average) take `cik_resample_rgba8`, signed ones
/// (Lanczos3) `cik_convolve_rgba8`, which clamps the kernel's overshoot. Nothing image-sized is
/// allocated besides the output, and only the source rectangle that contributes is read.
enum Resampler {
    /// A region of the source, in source pixels (may be fractional).
    struct SourceRect: Equatable {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Resamples `rect` of `image` to `width` × `height` pixels with `filter`.
    ///
    /// Works on premultiplied colour (converting a straight-alpha, non-opaque input first and
    /// the output back), so transparent pixels never darken their neighbours. The output has
    /// the input's pixel format and opacity. A whole-block area average of an image that needs
    /// no premultiplying takes the faster ``BoxDownsampler``.
    ///
    /// `sharpening` (Lanczos3 only) undoes a reduced decode's softness (see
    /// ``DecodeReduction/sharpening``); `simd` caps the vector instructions Lanczos3's kernel
    /// uses (every level gives the same bytes; tests compare them).
    static func resample(
        _ image: Image, rect: SourceRect, width: Int, height: Int, filter: ImageProcessors.Resize.Filter = .lanczos3,
        sharpening: Double = 0, simd: cik_simd = CIK_SIMD_BEST
    ) -> Image {
        if filter == .areaAverage,
            let blocks = BoxDownsampler.downsample(image, rect: rect, width: width, height: height)
        {
            return blocks
        }
        var xw = ResampleWeights(
            sourceLength: image.width, origin: rect.x, extent: rect.width, outputLength: width, filter: filter,
            sharpening: sharpening)
        var yw = ResampleWeights(
            sourceLength: image.height, origin: rect.y, extent: rect.height, outputLength: height, filter: filter,
            sharpening: sharpening)
        let xr = xw.usedRange, yr = yw.usedRange
        xw.shift(by: -xr.lowerBound)
        yw.shift(by: -yr.lowerBound)
        var source = image.cropped(x: xr.lowerBound, y: yr.lowerBound, width: xr.count, height: yr.count)
        let straight = !image.isOpaque && image.pixelFormat == .rgba8
        if straight { source = AlphaConversion.premultiplied(source) }
        let format: PixelFormat = straight ? .rgba8Premultiplied : image.pixelFormat
        let premultiplied = !image.isOpaque && format == .rgba8Premultiplied
        let output = Image(width: width, height: height, pixelFormat: format, isOpaque: image.isOpaque) {
            pixels, rowLength in
            source.withUnsafeBytes { src in
                run(
                    source: src.baseAddress!.assumingMemoryBound(to: UInt8.self), sourceBytesPerRow: source.bytesPerRow,
                    sourceWidth: source.width, xWeights: xw, yWeights: yw, premultiplied: premultiplied,
                    output: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), outputBytesPerRow: rowLength,
                    outputWidth: width, outputHeight: height, simd: simd)
            }
        }
        // Every channel goes through the same weights: grey stays grey.
        var result = straight ? AlphaConversion.unpremultiplied(output) : output
        result.isGray = image.isGray
        return result
    }

    private static func run(
        source: UnsafePointer<UInt8>, sourceBytesPerRow: Int, sourceWidth: Int,
        xWeights: ResampleWeights, yWeights: ResampleWeights, premultiplied: Bool,
        output: UnsafeMutablePointer<UInt8>, outputBytesPerRow: Int,
        outputWidth: Int, outputHeight: Int, simd: cik_simd
    ) {
        let averages = xWeights.isNonNegative && yWeights.isNonNegative
        let status = xWeights.withTaps { x in
            yWeights.withTaps { y in
                averages
                    ? cik_resample_rgba8(
                        source, sourceBytesPerRow, UInt32(sourceWidth), x, y,
                        output, outputBytesPerRow, UInt32(outputWidth), UInt32(outputHeight))
                    : cik_convolve_rgba8(
                        source, sourceBytesPerRow, UInt32(sourceWidth), x, y, premultiplied ? 1 : 0,
                        output, outputBytesPerRow, UInt32(outputWidth), UInt32(outputHeight), simd)
            }
        }
        // The kernels' allocations are a row of the source and the weight tables; failing it is running out of memory.
        precondition(status == 0, "out of memory for a resampling row of \(sourceWidth) pixels")
    }
}
