import Foundation
import Comet
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decodes image data through a Comet ``ImageDecoderRegistry`` (by default
/// `ImageDecoderRegistry.default`; an animation's first frame), upright.
///
/// Returns `nil` for an HTTP response outside 200...299 (Nuke 4's loader does not check the
/// status, its decoder does: a 404 ends as ``Loader/Error/decodingFailed``), for empty data and
/// for data Comet cannot decode. Thread-safe.
public struct DataDecoder: DataDecoding, Sendable {
    /// The formats and decoders used.
    public let decoders: ImageDecoderRegistry

    /// Creates a decoder over `decoders` (default: Comet's built-in formats; register more on a copy).
    public init(decoders: ImageDecoderRegistry = .default) {
        self.decoders = decoders
    }

    /// The decoded image, or `nil` (see the type's documentation).
    public func decode(data: Data, response: URLResponse) -> Image? {
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) { return nil }
        return try? decoders.decode(data).image
    }
}
