import Comet
import Foundation

/// The image `wm` draws over results: decoded once at start-up (`--watermark PATH`), in sRGB,
/// and named by its content, so results made with another watermark file have other keys.
///
/// Thread-safe (immutable).
public struct WatermarkImage: Sendable {
    /// The decoded overlay (sRGB, any alpha).
    public let image: Image
    /// The first 16 hex digits of the file's SHA-256: part of the result key of every URL with
    /// `wm`, and the overlay's name in the processor's identifier.
    public let id: String

    /// An overlay named `id`.
    public init(image: Image, id: String) {
        self.image = image
        self.id = id
    }

    /// Decodes the image file at `path` (any format Comet decodes; a colour profile is
    /// converted to sRGB). Throws when the file cannot be read or decoded.
    public static func load(path: String) throws -> WatermarkImage {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let image = try ImageDecoders.decode(data).image
        return WatermarkImage(image: image, id: String(SHA256State.hexDigest(of: data).prefix(16)))
    }
}
