import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImageRequest {
    /// What identifies the request's bytes in every key Comet makes (coalescing, memory cache,
    /// disk cache), for code that keys its own caches the same way (the migration shims do).
    ///
    /// - An explicit ``imageID`` (or a closure request's `id`) is the whole identity: the caller
    ///   declared that requests with that id are the same image.
    /// - Else the URL's absolute string; for a `URLRequest` that sets a method other than GET,
    ///   header fields or a body, followed by `#request:` and a SHA-256 digest of them, so that
    ///   two requests whose headers can change the bytes (credentials, `Accept`, cookies) never
    ///   share a download or a cached result. Header names count case-insensitively and in any
    ///   order. The digest keeps credentials out of keys, which appear in logs.
    ///
    /// Made once per request value (with its other keys); thread-safe.
    public var dataKey: String { key.dataKey }

    /// Makes ``dataKey`` (kept in the request's ``ImageKey``).
    func makeDataKey() -> String {
        if let explicit = explicitImageID { return explicit }
        switch resource {
        case .url(let url):
            return url?.absoluteString ?? ""
        case .urlRequest(let urlRequest):
            let url = urlRequest.url?.absoluteString ?? ""
            guard let digest = Self.variantDigest(of: urlRequest) else { return url }
            return url + "#request:" + digest
        case .closure(let id, _):
            return id
        }
    }

    /// A digest of what a `URLRequest` sets beyond its URL that can change the response's bytes,
    /// or `nil` when it sets nothing (a plain GET). Header names are compared case-insensitively
    /// and in any order.
    private static func variantDigest(of urlRequest: URLRequest) -> String? {
        let method = (urlRequest.httpMethod ?? "GET").uppercased()
        let headers = urlRequest.allHTTPHeaderFields ?? [:]
        let body = urlRequest.httpBody ?? Data()
        guard method != "GET" || !headers.isEmpty || !body.isEmpty else { return nil }
        var canonical = Data(method.utf8)
        for (name, value) in headers.map({ ($0.key.lowercased(), $0.value) }).sorted(by: { $0 < $1 }) {
            canonical.append(0x0A)
            canonical.append(contentsOf: name.utf8)
            canonical.append(0x3A)
            canonical.append(contentsOf: value.utf8)
        }
        canonical.append(0x0A)
        canonical.append(0x0A)
        canonical.append(body)
        return String(SHA256.hexDigest(canonical).prefix(32))
    }
}
