import Foundation

/// Premultiplied "over" compositing of one overlay at several positions: the kernel of
/// ``ImageProcessors/Watermark``.
enum OverlayBlender {
    /// `base` (opaque or premultiplied) with `overlay` (opaque or premultiplied) drawn over it at
    /// each of `origins` (clipped to the base), its alpha scaled by `opacity`. Copies are
    /// expected not to overlap. Integer arithmetic: `o·k/255 + b·(255 − a·k/255)/255`, rounded.
    static func blend(_ overlay: Image, over base: Image, at origins: [(x: Int, y: Int)], opacity: Double) -> Image {
        let k = UInt32((opacity * 255).rounded())
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
                    for origin in origins {
                        let xs = max(origin.x, 0)..<min(origin.x + overlay.width, base.width)
                        let ys = max(origin.y, 0)..<min(origin.y + overlay.height, base.height)
                        guard !xs.isEmpty, !ys.isEmpty else { continue }
                        for y in ys {
                            let row = out + y * rowLength
                            let overlayRow = mark + (y - origin.y) * overlay.bytesPerRow
                            for x in xs {
                                let o = overlayRow + (x - origin.x) * 4, b = row + x * 4
                                let a = (UInt32(o[3]) &* k &+ 127) / 255
                                let keep = 255 &- a
                                for c in 0..<4 {
                                    let top = (UInt32(o[c]) &* k &+ 127) / 255
                                    b[c] = UInt8(min(255, top &+ (UInt32(b[c]) &* keep &+ 127) / 255))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
