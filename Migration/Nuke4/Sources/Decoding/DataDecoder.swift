import Foundation
import Comet
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decodes PNG and JPEG data with Comet's decoders (libpng, libjpeg-turbo), upright.
///
/// Returns `nil` for an HTTP response outside 200...299 (Nuke 4's loader does not check the
/// status, its decoder does: a 404 ends as ``Loader/Error/decodingFailed``), for empty data and
/// for data Comet cannot decode. Thread-safe.
public struct DataDecoder: DataDecoding, Sendable {
    /// Creates a decoder.
    public init() {}

    /// The decoded image, or `nil` (see the type's documentation).
    public func decode(data: Data, response: URLResponse) -> Image? {
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) { return nil }
        return try? Imaging.Image(data: data)
    }
}
