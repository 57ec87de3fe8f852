/// The integer-ratio case of ``Resampler``: when each output pixel covers exactly
/// `factorX × factorY` whole source pixels (e.g. 1024×768 filled and cropped to 256², the
/// centre 768×768 in 3×3 blocks), the area average is a plain block sum divided by the block's
/// area. No weights, no fractional edges, so it runs as fast as the simplest C loop.
///
/// Used only where no premultiplication is needed (opaque or already premultiplied input), so
/// its output equals the general path's up to the general path's fixed-point rounding (±1).
enum BoxDownsampler {
    /// Largest block area handled: `(sum + area/2) × ⌈2³²/area⌉ >> 32` is an exact division
    /// for sums below 256 × area while area² < 2²⁴.
    static let maximumArea = 4095

    /// The block-averaged image, or `nil` when `rect` → `width` × `height` is not a whole-block
    /// shrink of this image (the caller then resamples in general).
    static func downsample(_ image: Image, rect: Resampler.SourceRect, width: Int, height: Int) -> Image? {
        guard image.isOpaque || image.pixelFormat == .rgba8Premultiplied,
            rect.x == rect.x.rounded(), rect.y == rect.y.rounded(), rect.x >= 0, rect.y >= 0
        else { return nil }
        let spanX = rect.width / Double(width), spanY = rect.height / Double(height)
        guard spanX == spanX.rounded(), spanY == spanY.rounded(), spanX >= 1, spanY >= 1, spanX * spanY > 1,
            spanX * spanY <= Double(maximumArea)
        else { return nil }
        let factorX = Int(spanX), factorY = Int(spanY), x0 = Int(rect.x), y0 = Int(rect.y)
        guard x0 + width * factorX <= image.width, y0 + height * factorY <= image.height else { return nil }
        let source = image.cropped(x: x0, y: y0, width: width * factorX, height: height * factorY)
        var output = Image(width: width, height: height, pixelFormat: image.pixelFormat, isOpaque: image.isOpaque) {
            pixels, rowLength in
            source.withUnsafeBytes { src in
                run(
                    source: src.baseAddress!.assumingMemoryBound(to: UInt8.self), sourceBytesPerRow: source.bytesPerRow,
                    factorX: factorX, factorY: factorY,
                    output: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), outputBytesPerRow: rowLength,
                    width: width, height: height)
            }
        }
        output.isGray = image.isGray  // every channel is averaged alike
        return output
    }

    private static func run(
        source: UnsafePointer<UInt8>, sourceBytesPerRow: Int, factorX: Int, factorY: Int,
        output: UnsafeMutablePointer<UInt8>, outputBytesPerRow: Int, width: Int, height: Int
    ) {
        let rowBytes = width * factorX * 4
        // Column sums of up to 4095 rows of bytes fit 32 bits; a flat loop the compiler vectorises.
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: rowBytes)
        defer { columns.deallocate() }
        let area = UInt32(factorX * factorY)
        let half = area / 2
        let reciprocal = (UInt64(1) << 32 + UInt64(area) - 1) / UInt64(area)
        for oy in 0..<height {
            let first = source + oy * factorY * sourceBytesPerRow
            for i in 0..<rowBytes { columns[i] = UInt32(first[i]) }
            var k = 1
            while k < factorY {
                let row = first + k * sourceBytesPerRow
                for i in 0..<rowBytes { columns[i] = columns[i] &+ UInt32(row[i]) }
                k += 1
            }
            let out = output + oy * outputBytesPerRow
            var p = columns
            for ox in 0..<width {
                var r = half, g = half, b = half, a = half
                for _ in 0..<factorX {
                    r = r &+ p[0]; g = g &+ p[1]; b = b &+ p[2]; a = a &+ p[3]
                    p += 4
                }
                let o = out + ox * 4
                o[0] = UInt8(truncatingIfNeeded: (UInt64(r) &* reciprocal) &>> 32)
                o[1] = UInt8(truncatingIfNeeded: (UInt64(g) &* reciprocal) &>> 32)
                o[2] = UInt8(truncatingIfNeeded: (UInt64(b) &* reciprocal) &>> 32)
                o[3] = UInt8(truncatingIfNeeded: (UInt64(a) &* reciprocal) &>> 32)
            }
        }
    }
}
