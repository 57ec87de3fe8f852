/// Separable resampling of RGBA8 images with precomputed fixed-point weights.
///
/// The vertical pass runs first, one output row at a time: it blends the few source rows that
/// row needs into a 32-bit accumulator row (a flat loop over bytes that the compiler turns into
/// SIMD), keeps 8 extra bits of precision in a 16-bit row, then the horizontal pass blends that
/// row into the output row. Nothing image-sized is allocated besides the output, and only the
/// source rectangle that contributes is read.
enum Resampler {
    /// A region of the source, in source pixels (may be fractional).
    struct SourceRect: Equatable {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Resamples `rect` of `image` to `width` × `height` pixels.
    ///
    /// Works on premultiplied colour (converting a straight-alpha, non-opaque input first and
    /// the output back), so transparent pixels never darken their neighbours. The output has
    /// the input's pixel format and opacity. A whole-block shrink of an image that needs no
    /// premultiplying takes the faster ``BoxDownsampler``.
    static func resample(_ image: Image, rect: SourceRect, width: Int, height: Int) -> Image {
        if let blocks = BoxDownsampler.downsample(image, rect: rect, width: width, height: height) { return blocks }
        var xw = ResampleWeights(sourceLength: image.width, origin: rect.x, extent: rect.width, outputLength: width)
        var yw = ResampleWeights(sourceLength: image.height, origin: rect.y, extent: rect.height, outputLength: height)
        let xr = xw.usedRange, yr = yw.usedRange
        xw.shift(by: -xr.lowerBound)
        yw.shift(by: -yr.lowerBound)
        var source = image.cropped(x: xr.lowerBound, y: yr.lowerBound, width: xr.count, height: yr.count)
        let straight = !image.isOpaque && image.pixelFormat == .rgba8
        if straight { source = AlphaConversion.premultiplied(source) }
        let format: PixelFormat = straight ? .rgba8Premultiplied : image.pixelFormat
        let output = Image(width: width, height: height, pixelFormat: format, isOpaque: image.isOpaque) { pixels, rowLength in
            source.withUnsafeBytes { src in
                run(source: src.baseAddress!.assumingMemoryBound(to: UInt8.self), sourceBytesPerRow: source.bytesPerRow,
                    sourceWidth: source.width, xWeights: xw, yWeights: yw,
                    output: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), outputBytesPerRow: rowLength,
                    outputWidth: width, outputHeight: height)
            }
        }
        return straight ? AlphaConversion.unpremultiplied(output) : output
    }

    private static func run(source: UnsafePointer<UInt8>, sourceBytesPerRow: Int, sourceWidth: Int,
                            xWeights: ResampleWeights, yWeights: ResampleWeights,
                            output: UnsafeMutablePointer<UInt8>, outputBytesPerRow: Int,
                            outputWidth: Int, outputHeight: Int) {
        let rowBytes = sourceWidth * 4
        let accumulator = UnsafeMutablePointer<Int32>.allocate(capacity: rowBytes)
        let row = UnsafeMutablePointer<UInt16>.allocate(capacity: rowBytes)
        defer { accumulator.deallocate(); row.deallocate() }
        let xStarts = xWeights.starts, xCounts = xWeights.counts, xTaps = xWeights.maxTaps
        let yStarts = yWeights.starts, yCounts = yWeights.counts, yTaps = yWeights.maxTaps
        xWeights.weights.withUnsafeBufferPointer { xw in
            yWeights.weights.withUnsafeBufferPointer { yw in
                for oy in 0..<outputHeight {
                    // Vertical: blend the contributing source rows.
                    let first = yStarts[oy]
                    let taps = yCounts[oy]
                    let w0 = yw[oy * yTaps]
                    let r0 = source + first * sourceBytesPerRow
                    for i in 0..<rowBytes { accumulator[i] = Int32(r0[i]) &* w0 }
                    var k = 1
                    while k < taps {
                        let w = yw[oy * yTaps + k]
                        let r = source + (first + k) * sourceBytesPerRow
                        for i in 0..<rowBytes { accumulator[i] = accumulator[i] &+ Int32(r[i]) &* w }
                        k += 1
                    }
                    // Keep 8 extra bits: 255 << 14 >> 6 = 255 << 8 fits UInt16.
                    for i in 0..<rowBytes { row[i] = UInt16(truncatingIfNeeded: (accumulator[i] &+ 32) &>> 6) }
                    // Horizontal: blend pixels of that row into the output row.
                    let out = output + oy * outputBytesPerRow
                    for ox in 0..<outputWidth {
                        let start = xStarts[ox], count = xCounts[ox]
                        var r: Int32 = 1 << 21, g: Int32 = 1 << 21, b: Int32 = 1 << 21, a: Int32 = 1 << 21
                        var p = row + start * 4
                        var t = ox * xTaps
                        for _ in 0..<count {
                            let w = xw[t]
                            r = r &+ Int32(p[0]) &* w
                            g = g &+ Int32(p[1]) &* w
                            b = b &+ Int32(p[2]) &* w
                            a = a &+ Int32(p[3]) &* w
                            p += 4
                            t += 1
                        }
                        let o = out + ox * 4
                        o[0] = clampByte(r &>> 22)
                        o[1] = clampByte(g &>> 22)
                        o[2] = clampByte(b &>> 22)
                        o[3] = clampByte(a &>> 22)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func clampByte(_ v: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(v, 0), 255)) }
}
