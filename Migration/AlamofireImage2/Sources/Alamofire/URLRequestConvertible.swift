import struct Comet.ImageRequest
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Foundation request type, for expressions inside types that have a `URLRequest`
/// property (there, `URLRequest(url:)` would name the property; type positions are fine).
typealias FoundationURLRequest = URLRequest

/// Something that can become a URL request: `URLRequest`, `URL` and `String` conform.
///
/// A `String` that is not a valid URL becomes a request without a URL; loading it fails with a
/// clear "unsupported URL" error instead of crashing.
public protocol URLRequestConvertible {
    // Alamofire 3's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The URL request.
    var URLRequest: URLRequest { get }
}

extension URLRequest: URLRequestConvertible {
    // Alamofire 3's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The request itself.
    public var URLRequest: URLRequest { self }
}

extension URL: URLRequestConvertible {
    // Alamofire 3's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// A GET request for this URL (default cache policy and timeout).
    public var URLRequest: URLRequest { FoundationURLRequest(url: self) }
}

extension String: URLRequestConvertible {
    // Alamofire 3's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// A GET request for this URL string.
    public var URLRequest: URLRequest {
        if let url = URL(string: self) { return FoundationURLRequest(url: url) }
        var request = FoundationURLRequest(url: URL(fileURLWithPath: "/"))
        request.url = nil
        return request
    }
}

extension FoundationURLRequest {
    /// The URL as a string, Alamofire's `URLString` (the key of downloads and caches); empty
    /// when the request has no URL.
    var urlString: String { url?.absoluteString ?? "" }

    /// The key of this request's downloads and cached images: ``urlString`` for a plain GET
    /// (AlamofireImage's key, byte for byte); for a request that sets headers, a body or another
    /// method, Comet's ``Comet/ImageRequest/dataKey`` (the URL string, then a digest of those),
    /// so that requests whose headers can change the bytes (credentials) never share an image.
    var imageKey: String { ImageRequest(urlRequest: self).dataKey }
}
