import Foundation

/// The kind of an encoded image, recognised from its first bytes ("magic numbers").
///
/// Comet decodes PNG, JPEG, WebP, GIF, AVIF, HEIC and JPEG XL; BMP, TIFF and ICO are recognised
/// so that errors can say "BMP is not supported" instead of "decoding failed". What Comet knows of
/// each (names, media type, extensions, signatures) is its ``ImageFormat``.
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

    /// The name people use: "PNG", "JPEG XL", "WebP"… (``ImageFormat/name``); a type the
    /// registry does not hold is named by its raw value in upper case.
    public var description: String { ImageFormat(self)?.name ?? rawValue.uppercased() }

    /// Recognises the type from the first bytes of `data` by the signatures of
    /// ``ImageFormat/all``, then by an ISO BMFF `ftyp` box's brands; `nil` when unknown (or too
    /// short).
    public init?(_ data: some Collection<UInt8>) {
        // Called for every file the pipeline decodes: one small array, no others per comparison.
        let head = Array(data.prefix(16))
        if let format = ImageFormat.all.first(where: { $0.signatures.contains { $0.matches(head) } }) {
            self = format.type
        } else if head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) {
            let major = String(decoding: head[8..<12], as: UTF8.self)
            if let format = Self.format(namedBy: major) {
                self = format.type
            } else if ImageFormat.structuralISOBrands.contains(major) {
                // An AVIF file may name a structural brand first, with its own among the
                // compatible brands that follow.
                self = Self.compatibleBrands(of: data).lazy.compactMap(Self.format(namedBy:)).first?.type ?? .heic
            } else {
                return nil
            }
        } else {
            return nil
        }
    }

    /// The format an ISO BMFF brand names, if any.
    private static func format(namedBy brand: String) -> ImageFormat? {
        ImageFormat.all.first { $0.isoBrands.contains(brand) }
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

extension AssetType {
    /// The type a file extension names in ``ImageFormat/all`` (`jpg`, `JPEG`, `heif`…),
    /// case-insensitively, without the dot; `nil` when none does.
    public init?(fileExtension: some StringProtocol) {
        // Asked for every URL with an extension or a format: the table holds small strings and
        // types, so reading it retains nothing, and the name is lower-cased only on a miss.
        if let match = Self.fileExtensions.first(where: { $0.name == fileExtension }) {
            self = match.type
            return
        }
        let lowered = fileExtension.lowercased()
        guard let match = Self.fileExtensions.first(where: { $0.name == lowered }) else { return nil }
        self = match.type
    }

    /// The registry's extensions with their types, read once.
    private static let fileExtensions: [(name: String, type: AssetType)] = ImageFormat.all.flatMap { format in
        format.fileExtensions.map { ($0, format.type) }
    }
}
