/// Why an image could not be decoded, in words a person can act on.
public enum ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There were no bytes to decode.
    case emptyData
    /// The data is an image of a known type that Comet does not decode (BMP, TIFF, ICO).
    case unsupportedFormat(AssetType)
    /// The file is of a supported type but uses a feature the codec library does not decode
    /// (e.g. 12-bit JPEG); `reason` is the library's message.
    case unsupportedFeature(AssetType, reason: String)
    /// The data does not start like any known image format. Carries its first bytes.
    case unrecognizedFormat(prefix: [UInt8])
    /// The image is larger than the limits allow; nothing image-sized was allocated.
    /// `width`/`height`: the declared (or, for `maxPixelCount`, the decoded) size; `limit`
    /// names the limit that was exceeded.
    case tooLarge(width: Int, height: Int, limit: String)
    /// The bytes are not a valid image of `type`; `reason` is the codec's own message
    /// (libpng's or libjpeg's), including strict-mode warnings and truncation.
    case corrupt(AssetType, reason: String)
    /// Incremental decoding ended before the image was complete.
    case incomplete(AssetType, reason: String)

    public var description: String {
        switch self {
        case .emptyData:
            "The data is empty: there is no image to decode."
        case .unsupportedFormat(let type):
            "\(type) images are not supported: no decoder is registered for them."
        case .unsupportedFeature(let type, let reason):
            "This \(type) file uses a feature that is not supported: \(reason)."
        case .unrecognizedFormat(let prefix):
            "The data is not a recognised image format (it starts with \(prefix.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")))."
        case .tooLarge(let width, let height, let limit):
            "The image is too large to decode (\(width)×\(height)): it exceeds \(limit)."
        case .corrupt(let type, let reason):
            "The \(type) data is corrupt: \(reason)."
        case .incomplete(let type, let reason):
            "The \(type) data ended before the image was complete: \(reason)."
        }
    }
}

import Foundation
