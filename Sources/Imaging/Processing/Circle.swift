extension ImageProcessors {
    /// Cuts the largest centred circle out of an image.
    ///
    /// Geometry as in AlamofireImage's `CircleFilter` and Nuke's `Circle`: the centred square of
    /// side `min(width, height)` is kept (no scaling), then clipped to a circle of radius half
    /// that side, anti-aliased, transparent outside, with an optional border inside the edge.
    public struct Circle: ImageProcessing, Hashable {
        /// The border drawn inside the edge, if any.
        public let border: Border?

        /// A circle with an optional `border`.
        public init(border: Border? = nil) {
            self.border = border.flatMap { $0.width > 0 ? $0 : nil }
        }

        /// `com.comet.circle`, or e.g. `com.comet.circle?border=%23ffffffff,2`.
        public var identifier: String {
            "com.comet.circle" + (border.map { "?border=\($0.identifierValue)" } ?? "")
        }

        /// The circular image: a square of side `min(width, height)`.
        public func process(_ image: Image) throws -> Image {
            let side = min(image.width, image.height)
            let square = image.cropped(
                x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
            return ShapeMask.apply(to: square, radius: Double(side) / 2, border: border)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Circle {
    /// Cuts the largest centred circle out of the image (see ``ImageProcessors/Circle``).
    public static func circle(border: ImageProcessors.Border? = nil) -> Self {
        .init(border: border)
    }
}
