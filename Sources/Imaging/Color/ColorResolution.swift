import CImageCodecs
import Foundation

/// A file's colour description, resolved for one decode: what to report, what to convert with,
/// and which profile the image keeps.
struct ColorResolution {
    /// What the decoder reports (``DecodedImage/colorHandling``).
    var handling: ColorHandling
    /// The transform to run over the decoded pixels; `nil` when there is nothing to do, or the
    /// numbers are kept.
    var transform: ColorTransform?
    /// The profile the image carries (keep-the-numbers mode with a non-sRGB RGB source).
    var keptProfile: ColorProfile?

    /// Nothing to do: no colour description.
    static let untagged = ColorResolution(handling: .untagged)

    init(handling: ColorHandling, transform: ColorTransform? = nil, keptProfile: ColorProfile? = nil) {
        self.handling = handling
        self.transform = transform
        self.keptProfile = keptProfile
    }

    /// Interprets a C resolution, taking over its transform reference.
    init(_ resolution: cic_colour_resolution, keepsOriginalColors: Bool) {
        var resolution = resolution
        let name = withUnsafeBytes(of: &resolution.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let message = withUnsafeBytes(of: &resolution.message) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch resolution.outcome {
        case CIC_COLOUR_SRGB:
            self.init(handling: .sRGB(name.isEmpty ? "sRGB" : name))
        case CIC_COLOUR_CONVERT:
            let transform = ColorTransform(adopting: resolution.transform!)
            if keepsOriginalColors && transform.isRGBSource {
                self.init(
                    handling: .kept(name),
                    keptProfile: ColorProfile(iccData: transform.iccData, name: name))
            } else {
                self.init(handling: .converted(from: name), transform: transform)
            }
        case CIC_COLOUR_UNUSABLE:
            self.init(handling: .unusable(reason: message))
        default:
            self.init(handling: .untagged)
        }
    }

    /// Resolves an embedded ICC profile for pixels of kind `input`.
    static func icc(_ bytes: UnsafeBufferPointer<UInt8>, input: cic_colour_input, keepsOriginalColors: Bool)
        -> ColorResolution
    {
        var resolution = cic_colour_resolution()
        cic_colour_resolve_icc(bytes.baseAddress, bytes.count, input, &resolution)
        return ColorResolution(resolution, keepsOriginalColors: keepsOriginalColors)
    }

    /// Resolves ITU-T H.273 colour primaries and transfer codes.
    static func cicp(primaries: Int32, transfer: Int32, input: cic_colour_input, keepsOriginalColors: Bool)
        -> ColorResolution
    {
        var resolution = cic_colour_resolution()
        cic_colour_resolve_cicp(primaries, transfer, input, &resolution)
        return ColorResolution(resolution, keepsOriginalColors: keepsOriginalColors)
    }

    /// Resolves an ISOBMFF container's `colr` boxes (AVIF, HEIF): an ICC profile wins over nclx
    /// codes, as browsers do; unspecified codes (2/2) and no profile are untagged.
    static func container(
        icc: UnsafePointer<UInt8>?, length: Int, primaries: Int32, transfer: Int32, input: cic_colour_input,
        keepsOriginalColors: Bool
    ) -> ColorResolution {
        if let icc {
            return .icc(
                UnsafeBufferPointer(start: icc, count: length), input: input, keepsOriginalColors: keepsOriginalColors)
        }
        if primaries == 2 && transfer == 2 { return .untagged }
        return .cicp(primaries: primaries, transfer: transfer, input: input, keepsOriginalColors: keepsOriginalColors)
    }

    /// Unusable, for a reason found before the profile was looked at.
    static func unusable(_ reason: String) -> ColorResolution {
        ColorResolution(handling: .unusable(reason: reason))
    }

    /// Converts a freshly decoded bitmap when there is a transform.
    func apply(to pixels: UnsafeMutableRawBufferPointer, bytesPerRow: Int, width: Int, height: Int) {
        transform?.convert(pixels, bytesPerRow: bytesPerRow, width: width, height: height)
    }
}
