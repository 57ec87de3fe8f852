import Foundation

/// Repeated box blurs over RGBA8 pixels with edge extension: the kernel of ``ImageProcessors/GaussianBlur``.
///
/// The image is extended once (its edge pixels repeated) and the boxes are applied in turn to
/// that extension, so the result is exactly the composite kernel applied to the extended image,
/// the same edge behaviour as a true Gaussian with extended edges. Each box is a running sum
/// (constant cost per pixel whatever the width). Vertical passes run over whole rows at once
/// (flat loops the compiler vectorises); horizontal passes run row by row on buffers that stay
/// in the L1 cache. Division by the box width is a fixed-point multiply that keeps constant
/// areas exactly constant.
enum BoxBlur {
    /// Odd widths of `count` boxes for a Gaussian of standard deviation `sigma`: `m` boxes of
    /// the odd width just below the ideal and the rest two wider, `m` chosen by the usual
    /// "boxes for Gauss" formula. (The result's σ is a few percent under `sigma`; measured against
    /// a true Gaussian this matches better than the variance-closest choice, because a sum of
    /// boxes has lighter tails.)
    static func boxWidths(sigma: Double, count: Int = 3) -> [Int] {
        guard sigma > 0 else { return [Int](repeating: 1, count: count) }
        let n = Double(count)
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let l = Double(lower)
        let m = Int(((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded())
        return (0..<count).map { $0 < m ? lower : lower + 2 }
    }

    static let shift: Int32 = 22

    /// `2^shift / width`, rounded: multiplying a sum by it and shifting divides by `width`.
    static func reciprocal(_ width: Int) -> Int32 {
        let scale = Double(1 << Int(shift))
        return Int32((scale / Double(width)).rounded())
    }

    /// `image` blurred with a box of each width, horizontally and vertically.
    static func blur(_ image: Image, boxWidths: [Int]) -> Image {
        let (w, h) = (image.width, image.height)
        let rowBytes = w * 4
        let radii = boxWidths.filter { $0 > 1 }.map { ($0 - 1) / 2 }
        let total = radii.reduce(0, +)
        // Vertical pass k writes rows −extra…h+extra, where extra = the radii of later passes.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * (h + 2 * total) * 2)
        defer { scratch.deallocate() }
        let bufferA = scratch, bufferB = scratch + rowBytes * (h + 2 * total)
        return image.withUnsafeBytes { source in
            Image(width: w, height: h, pixelFormat: image.pixelFormat, isOpaque: image.isOpaque) { pixels, outRow in
                let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var extra = total
                var input: (Int) -> UnsafePointer<UInt8> = { y in src + min(max(y, 0), h - 1) * image.bytesPerRow }
                var target = bufferA, spare = bufferB
                for radius in radii {
                    extra -= radius
                    if 2 * radius + 1 <= maxWidth16 {
                        vertical16(
                            input, output: target, rowBytes: rowBytes, firstRow: -extra, rowCount: h + 2 * extra,
                            radius: radius)
                    } else {
                        vertical(
                            input, output: target, rowBytes: rowBytes, firstRow: -extra, rowCount: h + 2 * extra,
                            radius: radius)
                    }
                    let (buffer, origin) = (UnsafePointer(target), extra)
                    input = { y in buffer + (y + origin) * rowBytes }
                    swap(&target, &spare)
                }
                // Horizontal passes, one row at a time, on a row extended by `total` pixels each side.
                let rowA = UnsafeMutablePointer<UInt8>.allocate(capacity: (w + 2 * total) * 4)
                let rowB = UnsafeMutablePointer<UInt8>.allocate(capacity: (w + 2 * total) * 4)
                defer { rowA.deallocate(); rowB.deallocate() }
                let out = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<h {
                    let row = input(y)
                    let first = UnsafeRawPointer(row).loadUnaligned(as: UInt32.self)
                    let last = UnsafeRawPointer(row + (w - 1) * 4).loadUnaligned(as: UInt32.self)
                    for i in 0..<total {
                        UnsafeMutableRawPointer(rowA).storeBytes(of: first, toByteOffset: i * 4, as: UInt32.self)
                        UnsafeMutableRawPointer(rowA).storeBytes(
                            of: last, toByteOffset: (total + w + i) * 4, as: UInt32.self)
                    }
                    memcpy(rowA + total * 4, row, rowBytes)
                    var length = w + 2 * total
                    var (from, to) = (rowA, rowB)
                    for (k, radius) in radii.enumerated() {
                        let destination = k == radii.count - 1 ? out + y * outRow : to
                        horizontal(from, output: destination, outputLength: length - 2 * radius, radius: radius)
                        length -= 2 * radius
                        swap(&from, &to)
                    }
                    if radii.isEmpty { memcpy(out + y * outRow, row, rowBytes) }
                }
            }
        }
    }

    /// Widest box for the 16-bit vertical pass: sums of up to 127 bytes plus rounding fit in
    /// 16 bits, and the 16-bit reciprocal still divides constant sums exactly.
    static let maxWidth16 = 127

    /// One vertical box pass in 16-bit lanes (twice as many per SIMD instruction as 32-bit, and
    /// a 16×16→high-16 multiply that SSE2 has): output = ((sum + w/2) · ⌈2¹⁶/w⌉) >> 16, which
    /// is exact for constant areas and within a fraction of a level of `round(sum / w)`.
    private static func vertical16(
        _ input: (Int) -> UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>,
        rowBytes: Int, firstRow: Int, rowCount: Int, radius: Int
    ) {
        let width = 2 * radius + 1
        let inverse = UInt32(UInt16((65536 + width - 1) / width))  // width ≥ 3
        let bias = UInt16(width / 2)
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        let top = input(firstRow - radius)
        for i in 0..<rowBytes { sums[i] = UInt16(top[i]) &+ bias }
        for y in (firstRow - radius + 1)...(firstRow + radius) {
            let r = input(y)
            for i in 0..<rowBytes { sums[i] = sums[i] &+ UInt16(r[i]) }
        }
        for k in 0..<rowCount {
            let y = firstRow + k
            let o = output + k * rowBytes
            if k == rowCount - 1 {
                for i in 0..<rowBytes {
                    o[i] = UInt8(truncatingIfNeeded: UInt16(truncatingIfNeeded: (UInt32(sums[i]) &* inverse) &>> 16))
                }
                break
            }
            let add = input(y + radius + 1), remove = input(y - radius)
            for i in 0..<rowBytes {
                let s = sums[i]
                o[i] = UInt8(truncatingIfNeeded: UInt16(truncatingIfNeeded: (UInt32(s) &* inverse) &>> 16))
                sums[i] = s &+ UInt16(add[i]) &- UInt16(remove[i])
            }
        }
    }

    /// One vertical box pass: output row `firstRow + i` (for `i` in `0..<rowCount`) is the mean
    /// of input rows `y − radius … y + radius`.
    private static func vertical(
        _ input: (Int) -> UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>,
        rowBytes: Int, firstRow: Int, rowCount: Int, radius: Int
    ) {
        let inverse = reciprocal(2 * radius + 1)
        let half: Int32 = 1 << (shift - 1)
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        let top = input(firstRow - radius)
        for i in 0..<rowBytes { sums[i] = Int32(top[i]) }
        for y in (firstRow - radius + 1)...(firstRow + radius) {
            let r = input(y)
            for i in 0..<rowBytes { sums[i] = sums[i] &+ Int32(r[i]) }
        }
        for k in 0..<rowCount {
            let y = firstRow + k
            let o = output + k * rowBytes
            if k == rowCount - 1 {
                for i in 0..<rowBytes { o[i] = UInt8(truncatingIfNeeded: (sums[i] &* inverse &+ half) &>> shift) }
                break
            }
            let add = input(y + radius + 1), remove = input(y - radius)
            for i in 0..<rowBytes {
                let s = sums[i]
                o[i] = UInt8(truncatingIfNeeded: (s &* inverse &+ half) &>> shift)
                sums[i] = s &+ Int32(add[i]) &- Int32(remove[i])
            }
        }
    }

    /// One horizontal box pass: output pixel `x` is the mean of input pixels `x … x + 2·radius`.
    /// The four channels of a pixel travel together in one SIMD register; boxes up to
    /// ``maxWidth16`` wide use 16-bit lanes and the same reciprocal as ``vertical16``.
    private static func horizontal(
        _ input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>,
        outputLength: Int, radius: Int
    ) {
        let boxWidth = 2 * radius + 1
        let raw = UnsafeRawPointer(input), out = UnsafeMutableRawPointer(output)
        if boxWidth <= maxWidth16 {
            let inverse = SIMD4<UInt32>(repeating: UInt32(UInt16((65536 + boxWidth - 1) / boxWidth)))
            @inline(__always) func pixel(_ i: Int) -> SIMD4<UInt16> {
                SIMD4<UInt16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt8>.self))
            }
            var sum = SIMD4<UInt16>(repeating: UInt16(boxWidth / 2))
            for i in 0..<boxWidth { sum &+= pixel(i) }
            for x in 0..<outputLength {
                let product = SIMD4<UInt32>(truncatingIfNeeded: sum) &* inverse
                let value = SIMD4<UInt16>(truncatingIfNeeded: product &>> 16)
                out.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                guard x + 1 < outputLength else { break }
                sum = sum &+ pixel(x + boxWidth) &- pixel(x)
            }
            return
        }
        let inverse = SIMD4<Int32>(repeating: reciprocal(boxWidth))
        let half = SIMD4<Int32>(repeating: 1 << (shift - 1))
        @inline(__always) func pixel(_ i: Int) -> SIMD4<Int32> {
            SIMD4<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<UInt8>.self))
        }
        var sum = SIMD4<Int32>.zero
        for i in 0..<boxWidth { sum &+= pixel(i) }
        for x in 0..<outputLength {
            let value = (sum &* inverse &+ half) &>> SIMD4<Int32>(repeating: shift)
            out.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            guard x + 1 < outputLength else { break }
            sum = sum &+ pixel(x + boxWidth) &- pixel(x)
        }
    }
}
