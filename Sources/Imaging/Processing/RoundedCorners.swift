extension ImageProcessors {
    /// Rounds the corners of an image: anti-aliased edges, transparent outside the corners,
    /// optionally with a border drawn just inside the edge.
    ///
    /// The radius is capped at half the shorter side. The output has the input's size and pixel
    /// format and is never marked opaque.
    public struct RoundedCorners: ImageProcessing, Hashable {
        /// Corner radius in pixels.
        public let radius: Double
        /// The border drawn inside the edge, if any.
        public let border: Border?

        /// Corners of `radius` (in `unit`), with an optional `border`.
        public init(radius: Double, unit: Unit = .pixels, border: Border? = nil) {
            self.radius = max(0, unit.pixels(radius))
            self.border = border.flatMap { $0.width > 0 ? $0 : nil }
        }

        /// E.g. `com.comet.roundedCorners?radius=8` or `…?radius=8&border=%23ffffffff,2`.
        public var identifier: String {
            "com.comet.roundedCorners?radius=\(identifierNumber(radius))"
                + (border.map { "&border=\($0.identifierValue)" } ?? "")
        }

        /// The image with rounded corners.
        public func process(_ image: Image) throws -> Image {
            ShapeMask.apply(to: image, radius: radius, border: border)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.RoundedCorners {
    /// Rounds the corners with `radius` pixels (see ``ImageProcessors/RoundedCorners``).
    public static func roundedCorners(
        radius: Double, unit: ImageProcessors.Unit = .pixels,
        border: ImageProcessors.Border? = nil
    ) -> Self {
        .init(radius: radius, unit: unit, border: border)
    }
}
