import Foundation

/// An ``IncrementalImageDecoder`` that crosses from the graph to the decoding work items.
///
/// `@unchecked Sendable`: the decoder is not thread-safe, and is used by one work item at a time.
/// That is structural: a ``DecodeLifecycle`` holds the box, and lends it to a work item in the
/// action that starts the item; it has no box to lend again until the item gives it back.
final class IncrementalDecoderBox: @unchecked Sendable {
    private let decoder: IncrementalImageDecoder

    init(_ decoder: IncrementalImageDecoder) { self.decoder = decoder }

    /// Feeds `chunks` and renders a preview of what has arrived (`nil`: nothing to show yet); a
    /// failure means the decoder gave up.
    func appendAndPreview(_ chunks: [Data]) -> Result<Image?, ImageDecodingError> {
        Result { () throws(ImageDecodingError) in
            for chunk in chunks { try decoder.append(chunk) }
            return try decoder.makePreview()
        }
    }

    /// Feeds the last `chunks` and decodes the whole image.
    func finish(appending chunks: [Data]) -> Result<DecodedImage, ImageDecodingError> {
        Result { () throws(ImageDecodingError) in
            for chunk in chunks { try decoder.append(chunk) }
            return try decoder.finish()
        }
    }
}
