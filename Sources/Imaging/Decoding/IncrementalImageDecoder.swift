import Foundation

/// Decodes an image while its bytes arrive, and renders previews along the way: progressive
/// JPEGs after each completed scan, interlaced (Adam7) PNGs after each completed pass.
///
/// Feed chunks with ``append(_:)``; ask for a preview with ``makePreview()`` whenever you have
/// time to render one (a caller that is busy simply asks less often: previews are never
/// queued); call ``finish()`` once the data is complete. The final image equals what a one-shot
/// decode of the same bytes gives. Baseline JPEGs and non-interlaced PNGs have no previews.
///
/// Not thread-safe: use one decoder from one task or thread at a time.
public final class IncrementalImageDecoder {
    /// The options every preview and the final image are decoded with.
    public let options: ImageDecodingOptions
    /// Where the format's decoder comes from.
    public let registry: ImageDecoderRegistry
    /// The format, once the first bytes have arrived.
    public private(set) var type: AssetType?

    private var backend: (any IncrementalImageDecoding)?
    private var pending = Data()
    private var failure: ImageDecodingError?

    /// Bytes that settle any format's recognition (a shorter file is recognised at its end).
    private static let recognitionLength = 16

    /// Creates a decoder. Limits and downsampling in `options` apply to previews too. The format
    /// is recognised, and its incremental decoder made, through `registry` (default: PNG and
    /// JPEG); a format without one is decoded in one go at the end, with no previews.
    public init(options: ImageDecodingOptions = ImageDecodingOptions(), registry: ImageDecoderRegistry = .default) {
        self.options = options
        self.registry = registry
    }

    /// Takes the next chunk of the file. Throws when the data is already known to be invalid
    /// (unsupported format, too large, corrupt); after an error every call throws it again.
    public func append(_ chunk: Data) throws(ImageDecodingError) {
        if let failure { throw failure }
        do throws(ImageDecodingError) {
            if let backend {
                try backend.append(chunk)
                return
            }
            pending.append(chunk)
            guard let type = registry.format(of: pending) else {
                guard pending.count >= Self.recognitionLength else { return }
                throw .unrecognizedFormat(prefix: Array(pending.prefix(8)))
            }
            self.type = type
            let backend = try registry.makeIncrementalDecoder(for: type, options: options)
            self.backend = backend
            let buffered = pending
            pending = Data()
            try backend.append(buffered)
        } catch {
            failure = error
            throw error
        }
    }

    /// A preview of what has arrived, when a scan or pass completed since the last preview;
    /// `nil` otherwise. Rendering costs about one decode of the output size.
    public func makePreview() throws(ImageDecodingError) -> Image? {
        if let failure { throw failure }
        do throws(ImageDecodingError) {
            return try backend?.makePreview()
        } catch {
            failure = error
            throw error
        }
    }

    /// Decodes the complete image from everything appended. A file cut short decodes as far as
    /// the format allows with a warning (JPEG, like a one-shot decode) or fails (PNG).
    public func finish() throws(ImageDecodingError) -> DecodedImage {
        if let failure { throw failure }
        guard let backend else {
            if pending.isEmpty { throw .emptyData }
            if let type = registry.format(of: pending) {
                guard registry.decoder(for: type) != nil else { throw .unsupportedFormat(type) }
                throw .incomplete(type, reason: "only \(pending.count) bytes arrived")
            }
            throw .unrecognizedFormat(prefix: Array(pending.prefix(8)))
        }
        return try backend.finish()
    }
}
