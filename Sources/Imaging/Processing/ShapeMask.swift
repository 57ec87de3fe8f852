import Foundation

/// Cuts an image to a rounded rectangle (a circle when the radius is half a square's side),
/// with anti-aliased edges, transparent outside, and an optional border inside the edge.
///
/// Coverage comes from the exact signed distance of each pixel centre to the shape
/// (`clamp(0.5 − distance, 0, 1)`), which is a close approximation of the pixel's area inside
/// the shape. Only pixels near the edge are computed; the interior of each row is copied.
enum ShapeMask {
    static func apply(to image: Image, radius: Double, border: ImageProcessors.Border?) -> Image {
        let (w, h) = (image.width, image.height)
        let r = min(max(radius, 0), Double(min(w, h)) / 2)
        let bw = border.map { min($0.width, Double(min(w, h)) / 2) } ?? 0
        let borderColor = border?.color ?? .clear
        let premultipliedInput = image.pixelFormat == .rgba8Premultiplied
        let (cx, cy) = (Double(w) / 2, Double(h) / 2)
        let (ex, ey) = (cx - r, cy - r)
        // Signed distance from a pixel centre to the edge (negative inside).
        func distance(_ x: Int, _ y: Int) -> Double {
            let qx = abs(Double(x) + 0.5 - cx) - ex
            let qy = abs(Double(y) + 0.5 - cy) - ey
            let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
            return outside + min(max(qx, qy), 0) - r
        }
        let bp = (
            Float(borderColor.red) * Float(borderColor.alpha) / 255,
            Float(borderColor.green) * Float(borderColor.alpha) / 255,
            Float(borderColor.blue) * Float(borderColor.alpha) / 255, Float(borderColor.alpha)
        )
        return image.withUnsafeBytes { source in
            Image(width: w, height: h, pixelFormat: image.pixelFormat, isOpaque: false) { pixels, rowLength in
                let src = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let dst = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                func shade(_ x: Int, _ y: Int) {
                    let s = src + y * image.bytesPerRow + x * 4
                    let o = dst + y * rowLength + x * 4
                    let d = distance(x, y)
                    let coverage = Float(min(max(0.5 - d, 0), 1))
                    let inner = bw > 0 ? Float(min(max(0.5 - (d + bw), 0), 1)) : 1
                    if coverage == 0 { o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0; return }
                    let alpha = Float(s[3])
                    let k: Float = premultipliedInput ? 1 : alpha / 255
                    let pr = (Float(s[0]) * k * inner + bp.0 * (1 - inner)) * coverage
                    let pg = (Float(s[1]) * k * inner + bp.1 * (1 - inner)) * coverage
                    let pb = (Float(s[2]) * k * inner + bp.2 * (1 - inner)) * coverage
                    let pa = (alpha * inner + bp.3 * (1 - inner)) * coverage
                    let outAlpha = pa.rounded()
                    if premultipliedInput {
                        o[0] = UInt8(min(pr.rounded(), outAlpha)); o[1] = UInt8(min(pg.rounded(), outAlpha))
                        o[2] = UInt8(min(pb.rounded(), outAlpha))
                    } else if pa > 0 {
                        let u = 255 / pa
                        o[0] = UInt8(min(255, (pr * u).rounded())); o[1] = UInt8(min(255, (pg * u).rounded()))
                        o[2] = UInt8(min(255, (pb * u).rounded()))
                    } else {
                        o[0] = 0; o[1] = 0; o[2] = 0
                    }
                    o[3] = UInt8(outAlpha)
                }
                // A pixel is untouched when it is a full pixel inside the border's inner edge.
                let interior = -(bw + 0.5)
                for y in 0..<h {
                    var left = 0
                    while left < (w + 1) / 2, distance(left, y) > interior {
                        shade(left, y)
                        if w - 1 - left != left { shade(w - 1 - left, y) }
                        left += 1
                    }
                    let count = w - 2 * left
                    if count > 0 {
                        memcpy(dst + y * rowLength + left * 4, src + y * image.bytesPerRow + left * 4, count * 4)
                    }
                }
            }
        }
    }
}
