import Foundation

extension ImageProcessors {
    /// Places an image centred on a transparent canvas of exactly a given size: pads where the
    /// image is smaller, crops (centred) where it is larger. No resampling.
    ///
    /// Following a ``Resize`` with ``Resize/ContentMode/aspectFit`` gives AlamofireImage's
    /// aspect-fit geometry (the scaled image centred on a transparent canvas of the target size).
    /// Offsets are whole pixels, rounded down: `(canvas − image) / 2`.
    public struct Canvas: ImageProcessing, Hashable {
        /// The canvas size.
        public let size: Size

        /// A canvas of `size` pixels.
        public init(size: Size) {
            self.size = Size(width: max(1, size.width), height: max(1, size.height))
        }

        /// E.g. `com.comet.canvas?width=256&height=256`.
        public var identifier: String { "com.comet.canvas?width=\(size.width)&height=\(size.height)" }

        /// The image on the canvas (the image itself when the sizes already match).
        public func process(_ image: Image) throws -> Image {
            if image.width == size.width && image.height == size.height { return image }
            let (w, h) = (size.width, size.height)
            // Offset of the image on the canvas (negative: the image is cropped).
            let dx = (w - image.width) / 2, dy = (h - image.height) / 2
            let visibleX = max(dx, 0)..<min(dx + image.width, w)
            let visibleY = max(dy, 0)..<min(dy + image.height, h)
            let covers = visibleX.count == w && visibleY.count == h
            return image.withUnsafeBytes { source in
                Image(width: w, height: h, pixelFormat: image.pixelFormat, isOpaque: image.isOpaque && covers) {
                    pixels, rowLength in
                    let out = pixels.baseAddress!
                    if !covers { memset(out, 0, rowLength * h) }
                    for y in visibleY {
                        memcpy(
                            out + y * rowLength + visibleX.lowerBound * 4,
                            source.baseAddress! + (y - dy) * image.bytesPerRow + (visibleX.lowerBound - dx) * 4,
                            visibleX.count * 4)
                    }
                }
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Canvas {
    /// Centres the image on a transparent canvas of `size` pixels (see ``ImageProcessors/Canvas``).
    public static func canvas(size: Size) -> Self { .init(size: size) }
}
