import CImageCodecs
import Foundation

/// An ICC colour profile: what the numbers of an image mean.
///
/// Images are sRGB unless they carry a profile: ``Image/colorProfile`` is `nil` for every image
/// decoded with the default options, since decoding converts to sRGB. With
/// ``ImageDecodingOptions/keepsOriginalColors`` an image keeps its file's numbers and carries its
/// profile here, and the encoders embed it again.
public struct ColorProfile: Sendable, Hashable, CustomStringConvertible {
    /// The profile's bytes, as embedded in files.
    public let iccData: Data
    /// The profile's description ("Display P3", …), or a made-up one for a description that was
    /// not an ICC profile (PNG's gAMA/cHRM, AVIF's CICP codes). May be empty.
    public let name: String

    /// Wraps the bytes of an ICC profile. Nothing is checked here: a malformed profile is
    /// reported when it is used.
    public init(iccData: Data, name: String = "") {
        self.iccData = iccData
        self.name = name
    }

    /// Display P3 (P3 primaries, D65 white, the sRGB curve): what iPhones write. Built with
    /// Little CMS; a matrix/TRC profile of about 600 bytes.
    public static let displayP3 = ColorProfile.build(
        chromaticities: h273Primaries(Int(CIC_H273_PRIMARIES_DISPLAY_P3)), name: "Display P3")

    /// sRGB (Little CMS's built-in profile).
    public static let sRGB: ColorProfile = {
        var buffer = cic_buffer()
        defer { cic_buffer_free(&buffer) }
        guard cic_colour_srgb_icc(&buffer) == CIC_OK else { return ColorProfile(iccData: Data(), name: "sRGB") }
        return ColorProfile(iccData: Data(bytes: buffer.bytes, count: buffer.length), name: "sRGB")
    }()

    /// A matrix/TRC RGB profile from a white point and primaries (`[white x, y, red x, y, green
    /// x, y, blue x, y]`) with the sRGB curve: for tagging generated images and for tests.
    public static func build(chromaticities: [Double], name: String) -> ColorProfile {
        build(chromaticities: chromaticities, curve: sRGBCurve, name: name)
    }

    /// The sRGB transfer as an ICC type 4 curve (g, a, b, c, d), from the C side's H.273 table.
    private static let sRGBCurve: [Double] = {
        var parameters = [Double](repeating: 0, count: 5)
        let type = parameters.withUnsafeMutableBufferPointer {
            cic_colour_h273_transfer(CIC_H273_TRANSFER_SRGB, $0.baseAddress)
        }
        precondition(type == 4, "the H.273 table gives sRGB's transfer as a type 4 curve")
        return parameters
    }()

    /// The white point and primaries of H.273 colour primaries `code`, from the C side's table.
    private static func h273Primaries(_ code: Int) -> [Double] {
        guard let xy = cic_colour_h273_primaries(Int32(code)) else {
            preconditionFailure("H.273 primaries \(code) are not in the table")
        }
        return Array(UnsafeBufferPointer(start: xy, count: 8))
    }

    /// A matrix/TRC RGB profile with the ICC parametric curve of type 4 `curve` (g, a, b, c, d:
    /// Y = (aX + b)^g from d up, cX below): tests build odd and hostile profiles with it.
    static func build(chromaticities: [Double], curve: [Double], name: String) -> ColorProfile {
        precondition(chromaticities.count == 8, "white, red, green and blue: eight coordinates")
        precondition(curve.count == 5, "a type 4 curve has five parameters")
        var buffer = cic_buffer()
        defer { cic_buffer_free(&buffer) }
        let status = chromaticities.withUnsafeBufferPointer { xy in
            curve.withUnsafeBufferPointer { cic_colour_build_rgb_icc(xy.baseAddress, $0.baseAddress, name, &buffer) }
        }
        guard status == CIC_OK else { return ColorProfile(iccData: Data(), name: name) }
        return ColorProfile(iccData: Data(bytes: buffer.bytes, count: buffer.length), name: name)
    }

    public var description: String { "ColorProfile(\(name.isEmpty ? "unnamed" : name), \(iccData.count) bytes)" }
}
