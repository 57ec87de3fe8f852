/// What a decoder did with the colour description of a file (``DecodedImage/colorHandling``).
public enum ColorHandling: Sendable, Hashable {
    /// The file has no colour description: its numbers are sRGB by convention, and are kept.
    case untagged
    /// The file's description is sRGB (judged by what the profile does, not by its name): its
    /// numbers are kept. The associated value names the description.
    case sRGB(String)
    /// The numbers were converted to sRGB from the named description.
    case converted(from: String)
    /// ``ImageDecodingOptions/keepsOriginalColors``: the file's numbers were kept, and the
    /// image carries the named profile (``Image/colorProfile``).
    case kept(String)
    /// The description is malformed or does not fit the image (a truncated or garbage
    /// profile, broken JPEG chunks, a CMYK profile on RGB pixels, an HDR transfer): the numbers
    /// were kept as they are. The reason is also ``DecodedImage/colorWarning``.
    case unusable(reason: String)

    /// `true` when the pixels are sRGB numbers: untagged, sRGB or converted.
    public var isSRGB: Bool {
        switch self {
        case .untagged, .sRGB, .converted: true
        case .kept, .unusable: false
        }
    }

    /// A short token for logs and headers: `untagged`, `srgb`, `converted`, `kept`, `unusable`.
    public var token: String {
        switch self {
        case .untagged: "untagged"
        case .sRGB: "srgb"
        case .converted: "converted"
        case .kept: "kept"
        case .unusable: "unusable"
        }
    }
}
