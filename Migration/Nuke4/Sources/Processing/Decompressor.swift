import Foundation
import Comet

/// Nuke 4's decompressor. On Apple platforms it forced a lazily decoded `UIImage` into a bitmap;
/// Comet's decoders already produce bitmaps, so on Linux it only scales the image down to
/// ``targetSize`` (never up), with Comet's resize processor.
public struct Decompressor: Processing {
    /// How the image relates to ``Decompressor/targetSize``.
    public enum ContentMode {
        /// The image covers the target size (the smaller side fits).
        case aspectFill
        /// The image fits inside the target size (the larger side fits).
        case aspectFit
    }

    /// The largest size, in pixels, the image needs; larger images are scaled down.
    public let targetSize: CGSize
    /// How the image is fitted to ``targetSize``.
    public let contentMode: ContentMode

    /// The target size meaning "no resizing".
    public static let maximumSize = CGSize(
        width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude)

    /// Creates a decompressor. Default: no resizing, `.aspectFill`.
    public init(targetSize: CGSize = Decompressor.maximumSize, contentMode: ContentMode = .aspectFill) {
        self.targetSize = targetSize
        self.contentMode = contentMode
    }

    /// The image scaled down to the target size, or the image itself when it is small enough;
    /// `nil` when Comet's resize fails.
    public func process(_ image: Image) -> Image? {
        guard targetSize != Decompressor.maximumSize, targetSize.width >= 1, targetSize.height >= 1 else {
            return image
        }
        let mode: ImageProcessors.Resize.ContentMode = contentMode == .aspectFill ? .aspectFill : .aspectFit
        // A finite but huge target cannot become whole pixels; no image is that large anyway.
        let limit = CGFloat(1 << 24)
        let size = CGSize(width: min(targetSize.width, limit), height: min(targetSize.height, limit))
        return try? ImageProcessors.Resize(size: size, contentMode: mode, crop: false, upscale: false).process(image)
    }
}
