/// The memory layout of an ``Image``'s pixels.
///
/// Every format stores 8-bit channels in the order red, green, blue, alpha, four bytes a pixel.
/// The formats differ in what the colour channels mean when alpha is below 255.
public enum PixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// RGBA, colour channels independent of alpha ("straight" alpha). This is what PNG stores
    /// and what the decoders produce.
    case rgba8

    /// RGBA, colour channels already multiplied by alpha. This is what resampling, blurring and
    /// compositing need to avoid dark fringes around transparent edges.
    case rgba8Premultiplied

    /// Bytes per pixel: 4 for every format.
    public var bytesPerPixel: Int { 4 }

    public var description: String {
        switch self {
        case .rgba8: "RGBA8"
        case .rgba8Premultiplied: "RGBA8 (premultiplied)"
        }
    }
}
