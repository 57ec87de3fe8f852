extension ImageProcessors {
    /// Blurs an image with a fast approximation of a Gaussian: three box blurs in each
    /// direction, whose widths are chosen so their combined variance is as close as possible to
    /// `radius²` (the standard "boxes for Gauss" construction).
    ///
    /// `radius` is the Gaussian's standard deviation σ in pixels: the convention of CSS
    /// `blur()` and of Core Image's `CIGaussianBlur` `inputRadius`, which Nuke's and
    /// AlamofireImage's blur filters use. Edges are extended (the outermost pixels repeat), so a
    /// blurred image keeps its size and its edges do not fade to transparent. Blurring works on
    /// premultiplied colour; the output has the input's size, pixel format and opacity.
    ///
    /// Accuracy: against a true Gaussian of the same σ (radius 8, same edge handling) the
    /// result differs by at most a few 8-bit levels on hard edges (see `GaussianBlurTests`).
    /// The radius is capped at 256 pixels and at half the image's longer side (beyond that the
    /// result is nearly uniform, and the edge extension would cost memory for nothing).
    public struct GaussianBlur: ImageProcessing, Hashable {
        /// The standard deviation σ in pixels.
        public let radius: Double

        /// A blur of standard deviation `radius` (in `unit`).
        public init(radius: Double = 8, unit: Unit = .pixels) {
            self.radius = max(0, unit.pixels(radius))
        }

        /// E.g. `com.comet.gaussianBlur?radius=8`.
        public var identifier: String { "com.comet.gaussianBlur?radius=\(identifierNumber(radius))" }

        /// The blurred image (the image itself for a radius of 0).
        public func process(_ image: Image) throws -> Image {
            let sigma = min(radius, 256, Double(max(image.width, image.height)) / 2)
            let widths = BoxBlur.boxWidths(sigma: sigma)
            guard widths.contains(where: { $0 > 1 }) else { return image }
            let straight = !image.isOpaque && image.pixelFormat == .rgba8
            let source = straight ? AlphaConversion.premultiplied(image) : image
            let output = BoxBlur.blur(source, boxWidths: widths)
            return straight ? AlphaConversion.unpremultiplied(output) : output
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.GaussianBlur {
    /// Blurs with standard deviation `radius` pixels (see ``ImageProcessors/GaussianBlur``).
    public static func gaussianBlur(radius: Double = 8, unit: ImageProcessors.Unit = .pixels) -> Self {
        .init(radius: radius, unit: unit)
    }
}
