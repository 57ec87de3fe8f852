import Foundation

/// A decoder that takes a file in pieces as it arrives and can render previews on the way (a
/// progressive JPEG after each scan, an interlaced PNG after each pass). Registered per format
/// in an ``ImageDecoderRegistry``; ``IncrementalImageDecoder`` drives it.
///
/// Not thread-safe: one decoder is used by one thread at a time.
public protocol IncrementalImageDecoding: AnyObject {
    /// Takes the next chunk. Throws when the data is known to be invalid.
    func append(_ chunk: Data) throws(ImageDecodingError)
    /// A preview of what has arrived when there is something new to show, else `nil`.
    func makePreview() throws(ImageDecodingError) -> Image?
    /// Decodes the complete image from everything appended.
    func finish() throws(ImageDecodingError) -> DecodedImage
}

/// The incremental decoder of a format that has none of its own: it collects the chunks and
/// decodes them in one go at the end (no previews).
final class BufferingIncrementalDecoder: IncrementalImageDecoding {
    private let decoder: any ImageDecoding
    private let options: ImageDecodingOptions
    private var data = Data()

    init(decoder: any ImageDecoding, options: ImageDecodingOptions) {
        self.decoder = decoder
        self.options = options
    }

    func append(_ chunk: Data) throws(ImageDecodingError) { data.append(chunk) }
    func makePreview() throws(ImageDecodingError) -> Image? { nil }
    func finish() throws(ImageDecodingError) -> DecodedImage { try decoder.decode(data, options: options) }
}
