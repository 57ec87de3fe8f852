import Foundation
import Imaging

// AlamofireImage 2's rounding and blurring filters, on Comet's processors.

/// Rounds the image's corners with `radius` pixels (capped at half the shorter side),
/// transparent outside the corners.
public struct RoundedCornersFilter: ImageFilter, Roundable {
    /// The corner radius in pixels.
    public let radius: CGFloat
    /// Whether the radius is divided by the image's scale. Linux images have scale 1, so this
    /// changes nothing but the identifier (kept for cache-key compatibility).
    public let divideRadiusByImageScale: Bool

    /// Corners of `radius` pixels.
    public init(radius: CGFloat, divideRadiusByImageScale: Bool = false) {
        self.radius = radius
        self.divideRadiusByImageScale = divideRadiusByImageScale
    }

    /// The image with rounded corners.
    public var filter: (Image) -> Image {
        let corners = ImageProcessors.RoundedCorners(radius: Double(radius))
        return { image in applying(corners, to: image) }
    }

    /// E.g. `RoundedCornersFilter-radius:(12)-divided:(false)`.
    public var identifier: String {
        "\(type(of: self))-radius:(\(Int64(radius.rounded())))-divided:(\(divideRadiusByImageScale))"
    }
}

/// Cuts the largest centred circle out of the image: the centred square of side
/// `min(width, height)`, clipped to a circle, transparent outside.
public struct CircleFilter: ImageFilter {
    /// A circle filter.
    public init() {}

    /// The circular image (a square of side `min(width, height)`).
    public var filter: (Image) -> Image {
        { image in applying(ImageProcessors.Circle(), to: image) }
    }
}

/// Blurs the image with a Gaussian of standard deviation `blurRadius` pixels (Core Image's
/// `CIGaussianBlur` `inputRadius`); the output keeps the input's size. Its identifier is
/// `BlurFilter` whatever the radius, as in AlamofireImage 2.
public struct BlurFilter: ImageFilter {
    /// The blur radius in pixels.
    let blurRadius: UInt

    /// A blur of `blurRadius` pixels (default 10).
    public init(blurRadius: UInt = 10) {
        self.blurRadius = blurRadius
    }

    /// The blurred image.
    public var filter: (Image) -> Image {
        let blur = ImageProcessors.GaussianBlur(radius: Double(blurRadius))
        return { image in applying(blur, to: image) }
    }
}
