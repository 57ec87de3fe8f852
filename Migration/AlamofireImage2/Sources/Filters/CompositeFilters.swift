import Foundation

// AlamofireImage 2's multi-pass filters: each is a fixed list of single filters, so its
// identifier is theirs joined with `_`, e.g.
// `ScaledToSizeFilter-size:(100x100)_RoundedCornersFilter-radius:(10)-divided:(false)`.

/// Scales to exactly `size`, then rounds the corners.
public struct ScaledToSizeWithRoundedCornersFilter: CompositeImageFilter {
    /// ``ScaledToSizeFilter`` then ``RoundedCornersFilter``.
    public let filters: [ImageFilter]

    /// Scales to `size` pixels, then rounds corners of `radius` pixels.
    public init(size: CGSize, radius: CGFloat, divideRadiusByImageScale: Bool = false) {
        filters = [
            ScaledToSizeFilter(size: size),
            RoundedCornersFilter(radius: radius, divideRadiusByImageScale: divideRadiusByImageScale),
        ]
    }
}

/// Aspect-fills `size`, then rounds the corners.
public struct AspectScaledToFillSizeWithRoundedCornersFilter: CompositeImageFilter {
    /// ``AspectScaledToFillSizeFilter`` then ``RoundedCornersFilter``.
    public let filters: [ImageFilter]

    /// Fills `size` pixels, then rounds corners of `radius` pixels.
    public init(size: CGSize, radius: CGFloat, divideRadiusByImageScale: Bool = false) {
        filters = [
            AspectScaledToFillSizeFilter(size: size),
            RoundedCornersFilter(radius: radius, divideRadiusByImageScale: divideRadiusByImageScale),
        ]
    }
}

/// Scales to exactly `size`, then cuts out a circle.
public struct ScaledToSizeCircleFilter: CompositeImageFilter {
    /// ``ScaledToSizeFilter`` then ``CircleFilter``.
    public let filters: [ImageFilter]

    /// Scales to `size` pixels, then cuts out the largest centred circle.
    public init(size: CGSize) {
        filters = [ScaledToSizeFilter(size: size), CircleFilter()]
    }
}

/// Aspect-fills `size`, then cuts out a circle.
public struct AspectScaledToFillSizeCircleFilter: CompositeImageFilter {
    /// ``AspectScaledToFillSizeFilter`` then ``CircleFilter``.
    public let filters: [ImageFilter]

    /// Fills `size` pixels, then cuts out the largest centred circle.
    public init(size: CGSize) {
        filters = [AspectScaledToFillSizeFilter(size: size), CircleFilter()]
    }
}
