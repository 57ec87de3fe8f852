import Foundation

/// Copies an image onto a canvas of one colour: the shared step of ``ImageProcessors/Padding``
/// and ``ImageProcessors/Extend``.
enum CanvasPlacement {
    /// A `width` × `height` image of `background` (stored in `image`'s pixel format) with `image`
    /// copied at (`x`, `y`), clipped to the canvas. The image's pixels are copied as they are,
    /// not blended with the background.
    static func place(_ image: Image, width: Int, height: Int, x: Int, y: Int, background: RGBA8) -> Image {
        let stored = image.pixelFormat == .rgba8Premultiplied ? background.premultiplied : background
        let word =
            UInt32(stored.red) | UInt32(stored.green) << 8 | UInt32(stored.blue) << 16 | UInt32(stored.alpha) << 24
        let visibleX = max(x, 0)..<min(x + image.width, width)
        let visibleY = max(y, 0)..<min(y + image.height, height)
        let covers = visibleX.count == width && visibleY.count == height
        let isOpaque = image.isOpaque && (covers || background.alpha == 255)
        return image.withUnsafeBytes { source in
            Image(width: width, height: height, pixelFormat: image.pixelFormat, isOpaque: isOpaque) {
                pixels, rowLength in
                let out = pixels.baseAddress!
                if !covers {
                    pixels.bindMemory(to: UInt32.self).initialize(repeating: UInt32(littleEndian: word))
                }
                guard !visibleX.isEmpty else { return }
                for row in visibleY {
                    memcpy(
                        out + row * rowLength + visibleX.lowerBound * 4,
                        source.baseAddress! + (row - y) * image.bytesPerRow + (visibleX.lowerBound - x) * 4,
                        visibleX.count * 4)
                }
            }
        }
    }
}
