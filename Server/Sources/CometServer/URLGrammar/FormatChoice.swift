import Comet

/// The output format decided for one request before the image is made.
///
/// Thread-safe (a value).
public enum FormatChoice: Sendable, Hashable {
    /// This format, asked for by the URL (`f:` or the extension) or chosen from `Accept`.
    case exactly(OutputFormat)
    /// imgproxy's choice when neither the URL nor `Accept` names one: the source's own format
    /// when it is one of imgproxy's default preferred formats (``preferredSourceFormats``:
    /// JPEG, PNG, GIF; an animated GIF stays animated), else GIF for an animation that is kept,
    /// JPEG for an opaque result and PNG for one with transparency (``format(forSource:isAnimated:)``).
    case source

    /// The source formats a result keeps when no format is asked for: imgproxy's default
    /// `IMGPROXY_PREFERRED_FORMATS` (`jpeg,png,gif`). A WebP, AVIF, HEIC, JPEG XL, BMP or TIFF
    /// source gives a JPEG or PNG (or an animated GIF), as with imgproxy's defaults.
    public static let preferredSourceFormats: [OutputFormat] = [.jpeg, .png, .gif]

    /// The format of ``exactly(_:)``, else `nil`.
    public var exactFormat: OutputFormat? {
        if case .exactly(let format) = self { format } else { nil }
    }

    /// The format's part of a cache key.
    public var keyComponent: String {
        switch self {
        case .exactly(let format): format.rawValue
        case .source: "source"
        }
    }

    /// The format ``source`` gives for a source of `type` (`nil` when it is none known),
    /// `isAnimated` when its animation is kept: the source's format when it is preferred (a
    /// GIF for an animation of GIF), GIF for another animation, else `nil`: JPEG when the
    /// result is opaque, PNG when it has transparency.
    public static func format(forSource type: AssetType?, isAnimated: Bool) -> OutputFormat? {
        if let type, let format = OutputFormat(type), preferredSourceFormats.contains(format),
            !isAnimated || format == .gif
        {
            return format
        }
        return isAnimated ? .gif : nil
    }

    /// Chooses from an `Accept` header: AVIF when accepted (and `allowsAVIF`), else WebP when
    /// accepted, else ``source``. Only explicit `image/avif` / `image/webp` entries with a
    /// quality above 0 count; wildcards do not (browsers send `*/*` for images they may not
    /// decode). Read over the header's UTF-8 bytes.
    public static func negotiate(accept: String?, allowsAVIF: Bool) -> FormatChoice {
        guard let accept else { return .source }
        var acceptsAVIF = false, acceptsWebP = false
        for entry in accept.utf8.split(separator: UInt8(ascii: ",")) {
            let parts = entry.split(separator: UInt8(ascii: ";"))
            guard let type = parts.first.map(trimmed) else { continue }
            let isAVIF = equalsIgnoringCase(type, ImageFormat.avif.mimeType)
            let isWebP = equalsIgnoringCase(type, ImageFormat.webp.mimeType)
            guard isAVIF || isWebP else { continue }
            let quality =
                parts.dropFirst().lazy.map(trimmed).first { $0.count >= 2 && equalsIgnoringCase($0.prefix(2), "q=") }
                .flatMap { Double(String(Substring($0.dropFirst(2)))) } ?? 1
            guard quality > 0 else { continue }
            if isAVIF { acceptsAVIF = true } else { acceptsWebP = true }
        }
        if allowsAVIF && acceptsAVIF { return .exactly(.avif) }
        if acceptsWebP { return .exactly(.webp) }
        return .source
    }

    /// `bytes` without the spaces and tabs around them.
    private static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }) else { return bytes[bytes.endIndex...] }
        let last = bytes.lastIndex(where: { !isBlank($0) })!
        return bytes[first...last]
    }

    /// Whether `bytes` are `text` (lower-case ASCII), ignoring ASCII case.
    private static func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ text: String) -> Bool {
        bytes.count == text.utf8.count && zip(bytes, text.utf8).allSatisfy { ASCII.lowercased($0) == $1 }
    }
}
