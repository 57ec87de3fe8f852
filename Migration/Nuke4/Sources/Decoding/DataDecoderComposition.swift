import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Asks several decoders in turn; the first image wins.
public final class DataDecoderComposition: DataDecoding {
    /// The decoders, asked first to last.
    public let decoders: [DataDecoding]

    /// Composes `decoders`, asked first to last.
    public init(decoders: [DataDecoding]) {
        self.decoders = decoders
    }

    /// The first decoder's non-nil image, or `nil` when none decodes the data.
    public func decode(data: Data, response: URLResponse) -> Image? {
        for decoder in decoders {
            if let image = decoder.decode(data: data, response: response) { return image }
        }
        return nil
    }
}
