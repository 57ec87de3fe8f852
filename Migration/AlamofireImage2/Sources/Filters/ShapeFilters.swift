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
/// `CIGaussianBlur` `inputRadius`).
///
/// Two deliberate differences from AlamofireImage 2 (the migration guide gives the reasons):
/// - The output keeps the input's size, its edges blurred against the nearest edge pixels;
///   Core Image's output grew by the blur's reach on every side, a fringe fading to transparent.
/// - The identifier names the radius, e.g. `BlurFilter-radius:(8)`; AlamofireImage 2's was
///   `BlurFilter` for every radius, so two radii shared cache entries and filtered results.
public struct BlurFilter: ImageFilter {
    /// The blur radius in pixels.
    let blurRadius: UInt

    /// A blur of `blurRadius` pixels (default 10).
    public init(blurRadius: UInt = 10) {
        self.blurRadius = blurRadius
    }

    /// `BlurFilter-radius:(R)`: one identifier per radius.
    public var identifier: String { "BlurFilter-radius:(\(blurRadius))" }

    /// The blurred image.
    public var filter: (Image) -> Image {
        let blur = ImageProcessors.GaussianBlur(radius: Double(blurRadius))
        return { image in applying(blur, to: image) }
    }
}
