import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns loaded data into an image; `nil` means it cannot (the load then fails with
/// ``Loader/Error/decodingFailed``).
public protocol DataDecoding {
    /// Decodes `data`, which arrived with `response`.
    func decode(data: Data, response: URLResponse) -> Image?
}
