import Imaging

/// The image type of the legacy API (`UIImage`/`NSImage` in AlamofireImage): Comet's decoded
/// RGBA8 bitmap, a `Sendable` value with `width`, `height` and pixels. There is no screen scale
/// on Linux: sizes are pixels.
public typealias Image = Imaging.Image
