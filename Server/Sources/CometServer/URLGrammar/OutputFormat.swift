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

    /// Parses a format name or file extension (`jpg`, `jpeg`, `png`, `webp`, `avif`, `gif`),
    /// case-insensitively; `nil` for anything else.
    public init?(name: String) {
        // Lower-case names first: compared as small strings, by their bits.
        switch name {
        case "jpeg", "jpg":
            self = .jpeg
            return
        case "png":
            self = .png
            return
        case "webp":
            self = .webp
            return
        case "avif":
            self = .avif
            return
        case "gif":
            self = .gif
            return
        default: break
        }
        // ASCII case-folding over the bytes: no format name has a letter that Unicode folds
        // from outside ASCII.
        func named(_ candidate: String) -> Bool {
            name.utf8.count == candidate.utf8.count
                && zip(name.utf8, candidate.utf8).allSatisfy { ASCII.lowercased($0) == $1 }
        }
        if named("jpeg") || named("jpg") {
            self = .jpeg
        } else if named("png") {
            self = .png
        } else if named("webp") {
            self = .webp
        } else if named("avif") {
            self = .avif
        } else if named("gif") {
            self = .gif
        } else {
            return nil
        }
    }

    /// The HTTP media type, e.g. `image/webp`.
    public var contentType: String { "image/\(rawValue)" }

    /// Whether the format keeps transparency (all but JPEG).
    public var keepsAlpha: Bool { self != .jpeg }

    /// The quality used when none is asked for: JPEG 85, WebP 80, AVIF 60; `nil` for PNG and
    /// GIF, which have none.
    public var defaultQuality: Int? {
        switch self {
        case .jpeg: 85
        case .png: nil
        case .webp: 80
        case .avif: 60
        case .gif: nil
        }
    }

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
