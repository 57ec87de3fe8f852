import Comet
import Foundation

/// An encoding the service can answer with.
///
/// Thread-safe (a value).
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG (libjpeg-turbo), for opaque images.
    case jpeg
    /// PNG (libpng), lossless, keeps alpha.
    case png
    /// WebP (libwebp), lossy unless the quality is 100.
    case webp
    /// AVIF (libavif), the smallest and the slowest to encode.
    case avif
    /// GIF (giflib): 216 colours with ordered dithering, alpha below 128 transparent; what an
    /// animation can be kept in besides WebP.
    case gif

    /// The format's facts in Imaging's registry (media type, extensions, alpha, quality).
    public var format: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        case .gif: .gif
        }
    }

    /// Parses a format name or file extension (`jpg`, `jpeg`, `png`, `webp`, `avif`, `gif`; the
    /// registry's extensions of the formats the service encodes), case-insensitively; `nil` for
    /// anything else.
    public init?(name: String) {
        guard let type = AssetType(fileExtension: name) else { return nil }
        self.init(type)
    }

    /// The output format of `type`, `nil` for a format the service does not encode.
    public init?(_ type: AssetType) {
        guard let match = Self.types.first(where: { $0.type == type }) else { return nil }
        self = match.output
    }

    /// The registry's type of each format, read once (no copy of an entry per call).
    private static let types: [(type: AssetType, output: OutputFormat)] = allCases.map { ($0.format.type, $0) }

    /// The HTTP media type, e.g. `image/webp`.
    public var contentType: String { format.mimeType }

    /// Whether the format keeps transparency (all but JPEG).
    public var keepsAlpha: Bool { format.supportsAlpha }

    /// The quality used when none is asked for, 1...100 (the registry's: JPEG 85, WebP 80, AVIF
    /// 60); `nil` for PNG and GIF, which have none.
    public var defaultQuality: Int? { format.defaultQuality.map { Int(($0 * 100).rounded()) } }

    /// Encodes `image` at `quality` (1...100; `nil` for ``defaultQuality``). PNG and GIF ignore
    /// the quality.
    public func encode(_ image: Image, quality: Int?) throws -> [UInt8] {
        let fraction = Double(quality ?? defaultQuality ?? 100) / 100
        let data =
            switch self {
            case .jpeg: try ImageEncoders.jpeg(image, quality: fraction)
            case .png: try ImageEncoders.png(image)
            case .webp: try ImageEncoders.webp(image, quality: fraction, lossless: quality == 100)
            case .avif: try ImageEncoders.avif(image, quality: fraction)
            case .gif:
                try ImageEncoders.gif(
                    AnimatedImage(type: .gif, frames: [.init(image: image, duration: 0)], loopCount: 1, data: Data()))
            }
        return [UInt8](data)
    }
}
