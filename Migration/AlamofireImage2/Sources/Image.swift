import Foundation
import Imaging

/// The image type of the legacy API (`UIImage`/`NSImage` in AlamofireImage): Comet's decoded
/// RGBA8 bitmap, a `Sendable` value with `width`, `height` and pixels. There is no screen scale
/// on Linux: sizes are pixels.
public typealias Image = Imaging.Image

extension Image {
    /// The image's size as `UIImage.size` gave it, here in pixels (`width` × `height`): there is
    /// no screen scale on Linux, so it equals the pixel size a scale-1 `UIImage` had.
    public var size: CGSize { CGSize(width: width, height: height) }
}
