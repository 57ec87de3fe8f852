extension ImageProcessors {
    /// Turns an image clockwise by a multiple of 90°: imgproxy's `rotate:%angle`.
    ///
    /// Angles are normalised to 0, 90, 180 or 270 (so -90 is 270 and 450 is 90); other angles
    /// make ``validate()`` and ``process(_:)`` throw. A quarter turn swaps width and height. Pixels
    /// are moved, not resampled, so nothing is lost and the pixel format is kept.
    public struct Rotate: ImageProcessing, Hashable {
        /// The clockwise turn in degrees, normalised to 0…359 when it is a multiple of 90.
        public let degrees: Int

        /// A clockwise turn of `degrees` (a multiple of 90).
        public init(degrees: Int) {
            self.degrees = degrees % 90 == 0 ? ((degrees % 360) + 360) % 360 : degrees
        }

        /// E.g. `com.comet.rotate?degrees=90`.
        public var identifier: String { "com.comet.rotate?degrees=\(degrees)" }

        /// Throws ``ImageProcessingError`` when the angle is not a multiple of 90°.
        public func validate() throws(ImageProcessingError) {
            guard degrees % 90 == 0 else {
                throw ImageProcessingError(
                    processor: identifier, reason: "only multiples of 90 degrees can be rotated by, got \(degrees)")
            }
        }

        /// The turned image (the image itself for 0°).
        public func process(_ image: Image) throws -> Image {
            try validate()
            let (w, h) = (image.width, image.height)
            switch degrees {
            case 90:  // output (x, y) comes from source (y, h − 1 − x)
                return PixelMover.move(image, width: h, height: w) { x, y in (y, h - 1 - x) }
            case 180:
                return PixelMover.move(image, width: w, height: h) { x, y in (w - 1 - x, h - 1 - y) }
            case 270:  // output (x, y) comes from source (w − 1 − y, x)
                return PixelMover.move(image, width: h, height: w) { x, y in (w - 1 - y, x) }
            default:
                return image
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Rotate {
    /// Turns the image clockwise by `degrees`, a multiple of 90 (see ``ImageProcessors/Rotate``).
    public static func rotate(degrees: Int) -> Self { .init(degrees: degrees) }
}
