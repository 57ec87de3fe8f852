extension ImageProcessors {
    /// Cuts a rectangle out of an image: one given by its corner, or one of a given size placed
    /// by a ``Gravity``.
    ///
    /// A rectangle given by its corner (in pixels, from the top left) is clipped to the image;
    /// processing throws ``ImageProcessingError`` when nothing of it is inside. A rectangle placed
    /// by gravity (imgproxy's `crop:width:height:gravity`) is first reduced to the image's size
    /// where it is larger, then placed in whole pixels (positions rounded down); its gravity's
    /// offsets are source pixels. The result is a compact copy, so a cached crop does not keep
    /// the whole original alive (use ``Image/cropped(x:y:width:height:)`` for a zero-copy view).
    public struct Crop: ImageProcessing, Hashable {
        /// Left edge in pixels (0 when ``gravity`` places the rectangle).
        public let x: Int
        /// Top edge in pixels (0 when ``gravity`` places the rectangle).
        public let y: Int
        /// Width in pixels.
        public let width: Int
        /// Height in pixels.
        public let height: Int
        /// What places the rectangle, or `nil` when ``x`` and ``y`` do.
        public let gravity: Gravity?

        /// The rectangle at (`x`, `y`) of `width` × `height` pixels.
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height, self.gravity) = (x, y, width, height, nil)
        }

        /// A rectangle of `width` × `height` pixels (at least 1 each) placed by `gravity`.
        public init(width: Int, height: Int, gravity: Gravity) {
            (self.x, self.y, self.width, self.height) = (0, 0, max(1, width), max(1, height))
            self.gravity = gravity
        }

        /// E.g. `com.comet.crop?x=10&y=20&width=100&height=50`, or
        /// `com.comet.crop?width=100&height=50&gravity=soea:10:0` when placed by gravity.
        public var identifier: String {
            if let gravity { return "com.comet.crop?width=\(width)&height=\(height)&gravity=\(gravity)" }
            return "com.comet.crop?x=\(x)&y=\(y)&width=\(width)&height=\(height)"
        }

        /// The part of `image` inside the rectangle.
        public func process(_ image: Image) throws -> Image {
            if let reason = gravity?.invalidityReason {
                throw ImageProcessingError(processor: identifier, reason: reason)
            }
            let (x0, y0, x1, y1) = bounds(in: image)
            guard x1 > x0, y1 > y0 else {
                throw ImageProcessingError(
                    processor: identifier,
                    reason: "the crop rectangle does not overlap the \(image.width)×\(image.height) image")
            }
            if x0 == 0, y0 == 0, x1 == image.width, y1 == image.height { return image }
            return image.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0).compacted()
        }

        /// The rectangle's left, top, right and bottom edges in `image`.
        func bounds(in image: Image) -> (Int, Int, Int, Int) {
            guard let gravity else {
                return (max(x, 0), max(y, 0), min(x + width, image.width), min(y + height, image.height))
            }
            let (w, h) = (min(width, image.width), min(height, image.height))
            let corner =
                gravity == .smart
                ? SmartCrop.origin(width: Double(w), height: Double(h), in: image)
                : gravity.origin(
                    width: Double(w), height: Double(h),
                    containerWidth: Double(image.width), containerHeight: Double(image.height))
            let (left, top) = (Int(corner.x.rounded(.down)), Int(corner.y.rounded(.down)))
            return (left, top, left + w, top + h)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// Cuts out the rectangle at (`x`, `y`) of `width` × `height` pixels (see ``ImageProcessors/Crop``).
    public static func crop(x: Int, y: Int, width: Int, height: Int) -> Self {
        .init(x: x, y: y, width: width, height: height)
    }

    /// Cuts out a rectangle of `width` × `height` pixels placed by `gravity` (see
    /// ``ImageProcessors/Crop``).
    public static func crop(width: Int, height: Int, gravity: ImageProcessors.Gravity = .center) -> Self {
        .init(width: width, height: height, gravity: gravity)
    }
}
