import Foundation

/// The built-in decoders (``ImageDecoderRegistry/default``), chosen by the data's first bytes.
public enum ImageDecoders {
    /// The built-in decoder for `type`, or `nil` when Comet does not decode that type.
    public static func decoder(for type: AssetType) -> (any ImageDecoding)? {
        ImageDecoderRegistry.default.decoder(for: type)
    }

    /// Recognises the format of `data` and decodes it (see ``ImageDecoderRegistry/decode(_:options:)``).
    ///
    /// Throws ``ImageDecodingError/emptyData``, ``ImageDecodingError/unsupportedFormat(_:)``
    /// (a known but undecodable type, e.g. BMP) or ``ImageDecodingError/unrecognizedFormat(prefix:)``
    /// before any decoding, else what the format's decoder throws.
    public static func decode(_ data: Data, options: ImageDecodingOptions = ImageDecodingOptions())
        throws(ImageDecodingError) -> DecodedImage
    {
        try ImageDecoderRegistry.default.decode(data, options: options)
    }
}

extension Image {
    /// Decodes a PNG, JPEG, WebP, GIF (first frame), AVIF, HEIC or JPEG XL image (format
    /// recognised from its bytes), upright, as straight-alpha RGBA8. Decoder warnings are
    /// tolerated (see ``ImageDecoders/decode(_:options:)`` and ``DecodedImage/warnings`` to see
    /// them, or ``ImageDecodingOptions/isStrict`` to refuse them).
    public init(data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageDecodingError) {
        self = try ImageDecoders.decode(data, options: options).image
    }
}
