extension ImageProcessors {
    /// Cuts a rectangle out of an image.
    ///
    /// The rectangle (in pixels, from the top left) is clipped to the image; processing throws
    /// ``ImageProcessingError`` when nothing of it is inside. The result is a compact copy, so
    /// a cached crop does not keep the whole original alive (use ``Image/cropped(x:y:width:height:)``
    /// for a zero-copy view).
    public struct Crop: ImageProcessing, Hashable {
        /// Left edge in pixels.
        public let x: Int
        /// Top edge in pixels.
        public let y: Int
        /// Width in pixels.
        public let width: Int
        /// Height in pixels.
        public let height: Int

        /// The rectangle at (`x`, `y`) of `width` × `height` pixels.
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        /// E.g. `com.comet.crop?x=10&y=20&width=100&height=50`.
        public var identifier: String { "com.comet.crop?x=\(x)&y=\(y)&width=\(width)&height=\(height)" }

        /// The part of `image` inside the rectangle.
        public func process(_ image: Image) throws -> Image {
            let x0 = max(x, 0), y0 = max(y, 0)
            let x1 = min(x + width, image.width), y1 = min(y + height, image.height)
            guard x1 > x0, y1 > y0 else {
                throw ImageProcessingError(
                    processor: identifier,
                    reason: "the crop rectangle does not overlap the \(image.width)×\(image.height) image")
            }
            if x0 == 0, y0 == 0, x1 == image.width, y1 == image.height { return image }
            return image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0).compacted()
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// Cuts out the rectangle at (`x`, `y`) of `width` × `height` pixels (see ``ImageProcessors/Crop``).
    public static func crop(x: Int, y: Int, width: Int, height: Int) -> Self {
        .init(x: x, y: y, width: width, height: height)
    }
}
