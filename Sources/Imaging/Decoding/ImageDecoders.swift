import Foundation

/// The built-in decoders, chosen by the data's first bytes.
public enum ImageDecoders {
    /// The decoder for `type`, or `nil` when Comet does not decode that type.
    public static func decoder(for type: AssetType) -> (any ImageDecoding)? {
        switch type {
        case .png: PNGDecoder()
        case .jpeg: JPEGDecoder()
        default: nil
        }
    }

    /// Recognises the format of `data` and decodes it.
    ///
    /// Throws ``ImageDecodingError/emptyData``, ``ImageDecodingError/unsupportedFormat(_:)``
    /// (a known but undecodable type, e.g. GIF) or ``ImageDecodingError/unrecognizedFormat(prefix:)``
    /// before any decoding, else what the format's decoder throws.
    public static func decode(_ data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageDecodingError) -> DecodedImage {
        guard !data.isEmpty else { throw .emptyData }
        guard let type = AssetType(data) else { throw .unrecognizedFormat(prefix: Array(data.prefix(8))) }
        guard let decoder = decoder(for: type) else { throw .unsupportedFormat(type) }
        return try decoder.decode(data, options: options)
    }
}

extension Image {
    /// Decodes a PNG or JPEG image (format recognised from its bytes), upright, as straight-alpha
    /// RGBA8. Decoder warnings are tolerated (see ``ImageDecoders/decode(_:options:)`` and
    /// ``DecodedImage/warnings`` to see them, or ``ImageDecodingOptions/isStrict`` to refuse them).
    public init(data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageDecodingError) {
        self = try ImageDecoders.decode(data, options: options).image
    }
}
