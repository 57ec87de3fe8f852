import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Alamofire 3's top-level entry points, so `Alamofire.request(.GET, url)` compiles with only
/// `import AlamofireImageCompat`. Requests made here go through ``Manager/sharedInstance`` and
/// start at once, as in Alamofire.
///
/// Not modelled: parameter encoding, uploads, downloads to files.
public enum Alamofire {
    // Alamofire 3's parameter name, kept as it documents the call.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Creates and starts a request with `method` for `URLString`, adding `headers`.
    ///
    /// A string that is not a URL gives a request that fails with an "unsupported URL" error.
    public static func request(
        _ method: Method, _ URLString: URLRequestConvertible,
        headers: [String: String]? = nil
    ) -> Request {
        Manager.sharedInstance.request(method, URLString, headers: headers)
    }

    // Alamofire 3's parameter name, kept as it documents the call.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Creates and starts a request for `URLRequest`.
    public static func request(_ URLRequest: URLRequestConvertible) -> Request {
        Manager.sharedInstance.request(URLRequest)
    }
}
