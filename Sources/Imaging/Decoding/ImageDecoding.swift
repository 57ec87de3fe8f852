import Foundation

/// A decoder for one image format: complete encoded data in, a bitmap out.
///
/// Implementations must be thread-safe (`Sendable`): the pipeline decodes on several threads.
public protocol ImageDecoding: Sendable {
    /// Decodes a complete file. Throws ``ImageDecodingError`` with the reason on failure.
    func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage
}

extension ImageDecoding {
    /// Decodes with default options.
    public func decode(_ data: Data) throws(ImageDecodingError) -> DecodedImage {
        try decode(data, options: ImageDecodingOptions())
    }
}
