import Comet
import Foundation

/// Resizes images for a ``Format`` with Comet's resize processor (box filter down, linear up).
public struct ImageResizer {
    // Haneke's case names (`.AspectFill`, ...), kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// How the image is fitted into ``size``.
    public enum ScaleMode: String {
        /// Each side scaled to the target's (the aspect ratio may change).
        case Fill = "fill"
        /// The whole image fits inside the target, aspect ratio kept.
        case AspectFit = "aspectfit"
        /// The image covers the target, aspect ratio kept (nothing is cropped).
        case AspectFill = "aspectfill"
        /// No resizing.
        case None = "none"
    }

    /// Whether images may be enlarged. Default `true`.
    public let allowUpscaling: Bool
    /// The target size in pixels (must be non-zero unless the mode is ``ScaleMode/None``).
    public let size: CGSize
    /// How images are fitted. Default ``ScaleMode/None``.
    public let scaleMode: ScaleMode
    /// JPEG quality (0...1) for formats that store resized images. Default 1.
    public let compressionQuality: Float

    /// A resizer to `size` with `scaleMode`.
    public init(
        size: CGSize = .zero, scaleMode: ScaleMode = .None, allowUpscaling: Bool = true,
        compressionQuality: Float = 1.0
    ) {
        self.size = size
        self.scaleMode = scaleMode
        self.allowUpscaling = allowUpscaling
        self.compressionQuality = compressionQuality
    }

    /// `image` fitted to ``size``: unchanged for ``ScaleMode/None``, for a zero target size,
    /// when it already has the resulting size, or when it would be enlarged and
    /// ``allowUpscaling`` is `false`.
    public func resizeImage(_ image: Image) -> Image {
        let contentMode: ImageProcessors.Resize.ContentMode
        switch scaleMode {
        case .None: return image
        case .Fill: contentMode = .stretch
        case .AspectFit: contentMode = .aspectFit
        case .AspectFill: contentMode = .aspectFill
        }
        guard size.width >= 1, size.height >= 1 else { return image }
        if !allowUpscaling {
            let (sx, sy) = (Double(size.width) / Double(image.width), Double(size.height) / Double(image.height))
            let enlarges =
                switch scaleMode {
                case .Fill: sx > 1 || sy > 1
                case .AspectFit: min(sx, sy) > 1
                default: max(sx, sy) > 1
                }
            if enlarges { return image }
        }
        let resize = ImageProcessors.Resize(size: size, contentMode: contentMode, crop: false, upscale: allowUpscaling)
        return (try? resize.process(image)) ?? image
    }
}
