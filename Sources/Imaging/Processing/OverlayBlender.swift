import Foundation

/// Premultiplied "over" compositing of one overlay, once or tiled: the kernel of
/// ``ImageProcessors/Watermark``.
enum OverlayBlender {
    /// `base` (opaque or premultiplied) with `overlay` (opaque or premultiplied) drawn over it at
    /// `origin`, and, with a `step`, again every `step.x` columns and `step.y` rows from there
    /// (each step at least the overlay's size, so copies do not overlap), clipped to the base,
    /// its alpha scaled by `opacity`. Integer arithmetic: `o·k/255 + b·(255 − a·k/255)/255`,
    /// rounded. The work is one pass over the covered pixels; nothing is allocated per copy.
    static func blend(
        _ overlay: Image, over base: Image, at origin: (x: Int, y: Int), step: (x: Int, y: Int)? = nil, opacity: Double
    ) -> Image {
        precondition(step.map { $0.x >= overlay.width && $0.y >= overlay.height } ?? true, "tiles would overlap")
        let k = UInt32((opacity * 255).rounded())
        // The copies' corners along each axis: one, or every step until the base's far edge.
        let lastX = step == nil ? origin.x : base.width - 1, lastY = step == nil ? origin.y : base.height - 1
        let (stepX, stepY) = (step?.x ?? 1, step?.y ?? 1)
        return base.withUnsafeBytes { baseBytes in
            overlay.withUnsafeBytes { overlayBytes in
                Image(width: base.width, height: base.height, pixelFormat: base.pixelFormat, isOpaque: base.isOpaque) {
                    pixels, rowLength in
                    let out = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let source = baseBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    let mark = overlayBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    for y in 0..<base.height {
                        memcpy(out + y * rowLength, source + y * base.bytesPerRow, base.width * 4)
                    }
                    for top in stride(from: origin.y, through: lastY, by: stepY) {
                        let ys = max(top, 0)..<min(top + overlay.height, base.height)
                        guard !ys.isEmpty else { continue }
                        for left in stride(from: origin.x, through: lastX, by: stepX) {
                            let xs = max(left, 0)..<min(left + overlay.width, base.width)
                            guard !xs.isEmpty else { continue }
                            for y in ys {
                                let row = out + y * rowLength
                                let overlayRow = mark + (y - top) * overlay.bytesPerRow
                                for x in xs {
                                    let o = overlayRow + (x - left) * 4, b = row + x * 4
                                    let a = (UInt32(o[3]) &* k &+ 127) / 255
                                    let keep = 255 &- a
                                    for c in 0..<4 {
                                        let upper = (UInt32(o[c]) &* k &+ 127) / 255
                                        b[c] = UInt8(min(255, upper &+ (UInt32(b[c]) &* keep &+ 127) / 255))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
