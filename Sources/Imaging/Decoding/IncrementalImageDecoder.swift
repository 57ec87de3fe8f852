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
    /// The format, once the first bytes have arrived.
    public private(set) var type: AssetType?

    private var backend: (any IncrementalDecodingBackend)?
    private var pending = Data()
    private var failure: ImageDecodingError?

    /// Creates a decoder. Limits and downsampling in `options` apply to previews too.
    public init(options: ImageDecodingOptions = ImageDecodingOptions()) {
        self.options = options
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
            guard pending.count >= 8 || (pending.count >= 3 && AssetType(pending) == .jpeg) else { return }
            guard let type = AssetType(pending) else { throw .unrecognizedFormat(prefix: Array(pending.prefix(8))) }
            self.type = type
            let backend: any IncrementalDecodingBackend
            switch type {
            case .jpeg: backend = try IncrementalJPEGDecoder(options: options)
            case .png: backend = try IncrementalPNGDecoder(options: options)
            default: throw .unsupportedFormat(type)
            }
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
            if let type = AssetType(pending) { throw .incomplete(type, reason: "only \(pending.count) bytes arrived") }
            throw .unrecognizedFormat(prefix: Array(pending.prefix(8)))
        }
        return try backend.finish()
    }
}

/// One format's incremental decoder.
protocol IncrementalDecodingBackend: AnyObject {
    func append(_ chunk: Data) throws(ImageDecodingError)
    func makePreview() throws(ImageDecodingError) -> Image?
    func finish() throws(ImageDecodingError) -> DecodedImage
}
