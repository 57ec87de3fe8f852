import Foundation

/// A decoder for one image format: complete encoded data in, a bitmap out.
///
/// Implementations must be thread-safe (`Sendable`): the pipeline decodes on several threads.
public protocol ImageDecoding: Sendable {
    /// Decodes a complete file. Throws ``ImageDecodingError`` with the reason on failure.
    func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage

    /// Whether ``decode(_:options:)`` checks `options.limits` against the file's header before
    /// doing any work in proportion to the image, throwing ``ImageDecodingError/tooLarge(width:height:limit:)``
    /// at once for a file over them (the built-in decoders do). When `true`, the pipeline
    /// decodes a small file on the thread that finished loading it, first with
    /// ``ImageDecodingLimits/maxSourcePixelCount`` lowered to a few thousand pixels, and sends
    /// it to a worker only when that attempt throws `tooLarge`: a tiny image then costs no
    /// thread hand-off. Default `false` (every decode runs on a worker).
    var checksLimitsBeforeDecoding: Bool { get }
}

extension ImageDecoding {
    /// `false`: the decoder is not known to check limits from the header first.
    public var checksLimitsBeforeDecoding: Bool { false }

    /// Decodes with default options.
    public func decode(_ data: Data) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: ImageDecodingOptions())
    }
}
