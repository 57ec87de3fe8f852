/// Builds an image whose pixels are taken, whole, from another's: the kernel of
/// ``ImageProcessors/Rotate`` and ``ImageProcessors/Flip``.
enum PixelMover {
    /// A `width` × `height` image (in `image`'s format) whose pixel (x, y) is `image`'s pixel
    /// `source(x, y)`. Pixels move as 32-bit words, so ``Image/isGray`` carries over.
    static func move(
        _ image: Image, width: Int, height: Int, from source: (_ x: Int, _ y: Int) -> (x: Int, y: Int)
    ) -> Image {
        var moved: Image = image.withUnsafeBytes { input in
            Image(width: width, height: height, pixelFormat: image.pixelFormat, isOpaque: image.isOpaque) {
                pixels, rowLength in
                let base = input.baseAddress!
                let output = pixels.baseAddress!
                for y in 0..<height {
                    let row = output + y * rowLength
                    for x in 0..<width {
                        let (sx, sy) = source(x, y)
                        let word = base.loadUnaligned(fromByteOffset: sy * image.bytesPerRow + sx * 4, as: UInt32.self)
                        row.storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        }
        moved.isGray = image.isGray
        return moved
    }
}
