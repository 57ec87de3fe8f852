extension ImageProcessors {
    /// Turns an image grey: thumbor's `grayscale()` filter.
    ///
    /// Each pixel's three colour channels become its luma `0.299 R + 0.587 G + 0.114 B`
    /// (ITU-R BT.601 weights on the stored sRGB values, what Pillow's conversion to `L` computes,
    /// in 16-bit fixed point, rounded). Alpha is untouched; the weights are linear, so
    /// premultiplied and straight colour give the same result and neither is converted.
    public struct Grayscale: ImageProcessing, Hashable {
        /// Grey by BT.601 luma.
        public init() {}

        /// `com.comet.grayscale`.
        public var identifier: String { "com.comet.grayscale" }

        /// The grey image, with ``Image/isGray`` set (so a PNG of it is written grey).
        public func process(_ image: Image) throws -> Image {
            var gray = PixelRows.map(image, isOpaque: image.isOpaque) { source, output, width in
                // 0.299, 0.587 and 0.114 in 16-bit fixed point (they sum to 65536).
                for i in 0..<width {
                    let o = i * 4
                    let r = UInt32(source[o]), g = UInt32(source[o + 1]), b = UInt32(source[o + 2])
                    let luma = UInt8(truncatingIfNeeded: (r &* 19595 &+ g &* 38470 &+ b &* 7471 &+ 32768) &>> 16)
                    output[o] = luma
                    output[o + 1] = luma
                    output[o + 2] = luma
                    output[o + 3] = source[o + 3]
                }
            }
            gray.isGray = true
            return gray
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Grayscale {
    /// Grey by BT.601 luma (see ``ImageProcessors/Grayscale``).
    public static func grayscale() -> Self { .init() }
}
