import Foundation

/// The decoders available to a pipeline (`ImagePipeline.Configuration.decoders` in Comet) or to
/// ``ImageDecoders``, keyed by format: each file's format is recognised from its first bytes,
/// then its format's decoder decodes it.
///
/// ``default`` has PNG and JPEG (one-shot and incremental), WebP, GIF, AVIF, HEIC and JPEG XL.
/// Register your own format with a recogniser for its first bytes, or replace a built-in decoder
/// by registering the same type:
///
/// ```swift
/// var decoders = ImageDecoderRegistry.default
/// decoders.register(AssetType("qoi"), decoder: QOIDecoder(), recognizedBy: { $0.starts(with: Array("qoif".utf8)) })
/// let pipeline = ImagePipeline { $0.decoders = decoders }
/// ```
///
/// A value: copies are independent, and it is `Sendable` (decoders must be thread-safe).
public struct ImageDecoderRegistry: Sendable {
    /// Makes a format's incremental decoder for one file.
    public typealias IncrementalDecoderFactory =
        @Sendable (ImageDecodingOptions) throws(ImageDecodingError) -> any IncrementalImageDecoding

    private struct Entry: Sendable {
        var decoder: any ImageDecoding
        var recognizer: (@Sendable (Data) -> Bool)?
        var makeIncrementalDecoder: IncrementalDecoderFactory?
    }

    private var entries: [AssetType: Entry] = [:]
    /// Types with their own recogniser, most recently registered first (they are asked before
    /// the built-in magic numbers of ``AssetType``).
    private var recognizedTypes: [AssetType] = []

    /// An empty registry: it decodes nothing until you register decoders.
    public init() {}

    /// PNG (libpng), JPEG (libjpeg-turbo) and WebP (libwebp), each with its incremental decoder;
    /// GIF (giflib), AVIF (libavif), HEIC (libheif) and JPEG XL (libjxl), decoded when their
    /// data is complete.
    public static let `default`: ImageDecoderRegistry = {
        var registry = ImageDecoderRegistry()
        registry.register(
            .png, decoder: PNGDecoder(),
            incremental: { options throws(ImageDecodingError) in
                try IncrementalPNGDecoder(options: options)
            })
        registry.register(
            .jpeg, decoder: JPEGDecoder(),
            incremental: { options throws(ImageDecodingError) in
                try IncrementalJPEGDecoder(options: options)
            })
        registry.register(
            .webp, decoder: WebPDecoder(),
            incremental: { options throws(ImageDecodingError) in
                try IncrementalWebPDecoder(options: options)
            })
        registry.register(.gif, decoder: GIFDecoder())
        registry.register(.avif, decoder: AVIFDecoder())
        registry.register(.heic, decoder: HEICDecoder())
        registry.register(.jpegXL, decoder: JPEGXLDecoder())
        return registry
    }()

    /// Registers `decoder` for `type`, replacing any decoder registered for it.
    ///
    /// - Parameters:
    ///   - type: the format.
    ///   - decoder: decodes whole files of it.
    ///   - recognizer: recognises the format from a file's first bytes (at least 16 are given
    ///     when the file has them). `nil` (the default): ``AssetType``'s built-in recognition.
    ///   - incremental: makes an incremental decoder (for progressive previews). `nil` (the
    ///     default): the data is collected and decoded in one go when complete.
    public mutating func register(
        _ type: AssetType,
        decoder: any ImageDecoding,
        recognizedBy recognizer: (@Sendable (Data) -> Bool)? = nil,
        incremental: IncrementalDecoderFactory? = nil
    ) {
        entries[type] = Entry(decoder: decoder, recognizer: recognizer, makeIncrementalDecoder: incremental)
        recognizedTypes.removeAll { $0 == type }
        if recognizer != nil { recognizedTypes.insert(type, at: 0) }
    }

    /// Removes the decoder of `type` (its files then fail with `unsupportedFormat`).
    public mutating func removeDecoder(for type: AssetType) {
        entries[type] = nil
        recognizedTypes.removeAll { $0 == type }
    }

    /// The formats with a decoder.
    public var types: Set<AssetType> { Set(entries.keys) }

    /// The format of `data`: registered recognisers first, then the built-in magic numbers;
    /// `nil` when nothing recognises it.
    public func format(of data: Data) -> AssetType? {
        for type in recognizedTypes where entries[type]?.recognizer?(data) == true { return type }
        return AssetType(data)
    }

    /// The decoder registered for `type`.
    public func decoder(for type: AssetType) -> (any ImageDecoding)? {
        entries[type]?.decoder
    }

    /// Recognises the format of `data` and decodes it with that format's decoder.
    ///
    /// Throws ``ImageDecodingError/emptyData``, ``ImageDecodingError/unsupportedFormat(_:)`` (a
    /// recognised type with no decoder here) or ``ImageDecodingError/unrecognizedFormat(prefix:)``
    /// before any decoding, else what the decoder throws.
    public func decode(_ data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageDecodingError)
        -> DecodedImage
    {
        guard !data.isEmpty else { throw .emptyData }
        guard let type = format(of: data) else { throw .unrecognizedFormat(prefix: Array(data.prefix(8))) }
        guard let decoder = decoder(for: type) else { throw .unsupportedFormat(type) }
        return try decoder.decode(data, options: options)
    }

    /// An incremental decoder for a file of `type`: the format's own, or one that collects the
    /// data and decodes it at the end. Throws ``ImageDecodingError/unsupportedFormat(_:)`` when
    /// `type` has no decoder here.
    public func makeIncrementalDecoder(for type: AssetType, options: ImageDecodingOptions) throws(ImageDecodingError)
        -> any IncrementalImageDecoding
    {
        guard let entry = entries[type] else { throw .unsupportedFormat(type) }
        if let make = entry.makeIncrementalDecoder { return try make(options) }
        return BufferingIncrementalDecoder(decoder: entry.decoder, options: options)
    }
}
