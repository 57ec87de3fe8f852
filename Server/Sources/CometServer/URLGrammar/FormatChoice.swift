import Foundation

/// The output format decided for one request before the image is made.
///
/// Thread-safe (a value).
public enum FormatChoice: Sendable, Hashable {
    /// This format, asked for by the URL (`f:` or the extension) or chosen from `Accept`.
    case exactly(OutputFormat)
    /// JPEG when the result is opaque, PNG when it has transparency: what every client takes.
    case jpegOrPNG

    /// The format's part of a cache key.
    public var keyComponent: String {
        switch self {
        case .exactly(let format): format.rawValue
        case .jpegOrPNG: "jpeg|png"
        }
    }

    /// Chooses from an `Accept` header: AVIF when accepted (and `allowsAVIF`), else WebP when
    /// accepted, else ``jpegOrPNG``. Only explicit `image/avif` / `image/webp` entries with a
    /// quality above 0 count; wildcards do not (browsers send `*/*` for images they may not
    /// decode).
    public static func negotiate(accept: String?, allowsAVIF: Bool) -> FormatChoice {
        guard let accept else { return .jpegOrPNG }
        var accepted = Set<String>()
        for entry in accept.split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { accepted.insert(type) }
        }
        if allowsAVIF && accepted.contains("image/avif") { return .exactly(.avif) }
        if accepted.contains("image/webp") { return .exactly(.webp) }
        return .jpegOrPNG
    }
}
