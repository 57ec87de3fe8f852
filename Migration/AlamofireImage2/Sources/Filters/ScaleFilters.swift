import Foundation
import Imaging

// The three scaling filters of AlamofireImage 2, on Comet's resize and canvas processors.
// Sizes are pixels (Linux has no screen scale); images are enlarged when the target is larger,
// as UIKit's drawing into the target size did.

/// Scales the image to exactly `size`, ignoring its aspect ratio.
public struct ScaledToSizeFilter: ImageFilter, Sizable {
    /// The target size in pixels.
    public let size: CGSize

    /// Scales to `size` pixels.
    public init(size: CGSize) {
        self.size = size
    }

    /// The scaled image.
    public var filter: (Image) -> Image {
        let resize = ImageProcessors.Resize(size: pixelSize(size), contentMode: .stretch, upscale: true)
        return { image in applying(resize, to: image) }
    }
}

/// Scales the image to fit inside `size` keeping its aspect ratio, centred on a transparent
/// canvas of exactly `size`.
public struct AspectScaledToFitSizeFilter: ImageFilter, Sizable {
    /// The target size in pixels.
    public let size: CGSize

    /// Fits into `size` pixels.
    public init(size: CGSize) {
        self.size = size
    }

    /// The fitted image on its canvas.
    public var filter: (Image) -> Image {
        let target = pixelSize(size)
        let steps: [any ImageProcessing] = [
            ImageProcessors.Resize(size: target, contentMode: .aspectFit, upscale: true),
            ImageProcessors.Canvas(size: target),
        ]
        return { image in steps.reduce(image) { applying($1, to: $0) } }
    }
}

/// Scales the image to cover `size` keeping its aspect ratio, then cuts out the centre: the
/// output is exactly `size`.
public struct AspectScaledToFillSizeFilter: ImageFilter, Sizable {
    /// The target size in pixels.
    public let size: CGSize

    /// Fills `size` pixels.
    public init(size: CGSize) {
        self.size = size
    }

    /// The filled, centred and clipped image.
    public var filter: (Image) -> Image {
        let resize = ImageProcessors.Resize(size: pixelSize(size), contentMode: .aspectFill, crop: true, upscale: true)
        return { image in applying(resize, to: image) }
    }
}

/// `size` in whole pixels (at least 1 a side).
func pixelSize(_ size: CGSize) -> Imaging.Size {
    Imaging.Size(size)
}

/// The processed image; the input unchanged if the processor fails (a filter has no way to
/// report an error, and AlamofireImage's filters returned the input when drawing failed).
func applying(_ processor: any ImageProcessing, to image: Image) -> Image {
    (try? processor.process(image)) ?? image
}
