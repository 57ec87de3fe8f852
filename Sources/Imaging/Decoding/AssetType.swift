import Foundation

/// The kind of an encoded image, recognised from its first bytes ("magic numbers").
///
/// Comet decodes PNG, JPEG, WebP, GIF, AVIF, HEIC and JPEG XL; BMP, TIFF and ICO are recognised
/// so that errors can say "BMP is not supported" instead of "decoding failed".
public struct AssetType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A short lowercase name, e.g. "png".
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let png: AssetType = "png"
    public static let jpeg: AssetType = "jpeg"
    public static let gif: AssetType = "gif"
    public static let webp: AssetType = "webp"
    public static let bmp: AssetType = "bmp"
    public static let tiff: AssetType = "tiff"
    public static let ico: AssetType = "ico"
    public static let heic: AssetType = "heic"
    public static let avif: AssetType = "avif"
    public static let jpegXL: AssetType = "jxl"

    /// The name people use: "PNG", "JPEG", "GIF"…
    public var description: String {
        switch self {
        case .jpegXL: "JPEG XL"
        case .heic: "HEIC"
        case .avif: "AVIF"
        default: rawValue.uppercased()
        }
    }

    /// Recognises the type from the first bytes of `data`; `nil` when unknown (or too short).
    public init?(_ data: some Collection<UInt8>) {
        // Called for every file the pipeline decodes: one small array, no others per comparison.
        let head = Array(data.prefix(16))
        func starts(with prefix: some Collection<UInt8>, at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && head[offset...].starts(with: prefix)
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(with: "GIF87a".utf8) || starts(with: "GIF89a".utf8) {
            self = .gif
        } else if starts(with: "RIFF".utf8) && starts(with: "WEBP".utf8, at: 8) {
            self = .webp
        } else if starts(with: "BM".utf8) && head.count >= 14 {
            self = .bmp
        } else if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts(with: [0x00, 0x00, 0x01, 0x00]) {
            self = .ico
        } else if starts(with: "ftyp".utf8, at: 4), head.count >= 12 {
            switch String(decoding: head[8..<12], as: UTF8.self) {
            case "avif", "avis": self = .avif
            case "heic", "heix", "heim", "heis", "hevc", "hevx": self = .heic
            case "mif1", "msf1":
                // HEIF's generic brands: an AVIF file may name one as its major brand, with
                // avif among the compatible brands that follow.
                self = Self.compatibleBrands(of: data).contains { $0 == "avif" || $0 == "avis" } ? .avif : .heic
            default: return nil
            }
        } else if starts(with: [0xFF, 0x0A]) || starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            self = .jpegXL
        } else {
            return nil
        }
    }

    /// The compatible brands of an ISO BMFF `ftyp` box at the start of `data` (the first 12 at
    /// most, those that have arrived).
    private static func compatibleBrands(of data: some Collection<UInt8>) -> [String] {
        let head = Array(data.prefix(64))
        guard head.count >= 16 else { return [] }
        let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let end = min(max(size, 16), head.count)
        return stride(from: 16, to: end - 3, by: 4).map { String(decoding: head[$0..<($0 + 4)], as: UTF8.self) }
    }
}
