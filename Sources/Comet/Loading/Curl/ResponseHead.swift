import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response head as libcurl passes it: one line per call, from the status line to the blank
/// line. The fields a transfer decides on (`Location`, `Content-Length`, `Content-Encoding`,
/// `Retry-After`, the challenge) are picked out as the lines arrive.
///
/// A value; confined to the loader's poll thread.
struct ResponseHead {
    private(set) var status = 0
    private(set) var httpVersion = "HTTP/1.1"
    /// Every field, repeated names joined with ", " (as `HTTPURLResponse` presents them).
    private(set) var fields: [String: String] = [:]
    private(set) var location: String?
    private(set) var contentLength: Int64?
    private(set) var contentEncoding: String?
    private(set) var retryAfter: String?
    /// `WWW-Authenticate` or `Proxy-Authenticate`, the first one.
    private(set) var challenge: String?

    /// Adds one line (with its line break). Returns `true` when it is the blank line that ends
    /// the head.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 { return true }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            // A new head (an interim 1xx, or the next attempt's): start over.
            self = ResponseHead()
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            httpVersion = parts.first.map(String.init) ?? "HTTP/1.1"
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return false
        }
        guard let colon = text.firstIndex(of: ":") else { return false }
        let name = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return false }
        if let existing = fields[name] {
            fields[name] = existing + ", " + value
        } else {
            fields[name] = value
        }
        switch name.lowercased() {
        case "location": location = value
        case "content-length": contentLength = Int64(value)
        case "content-encoding": contentEncoding = value.lowercased()
        case "retry-after": retryAfter = value
        case "www-authenticate", "proxy-authenticate": if challenge == nil { challenge = value }
        default: break
        }
        return false
    }

    /// The Content-Length of a body that is not content-encoded (a decoded body's length differs
    /// from it).
    var identityLength: Int64? {
        guard let contentLength, contentLength >= 0 else { return nil }
        guard let contentEncoding, contentEncoding != "identity" else { return contentLength }
        return nil
    }

    /// The seconds of a 429's or 503's `Retry-After`.
    var retryAfterSeconds: TimeInterval? {
        guard status == 429 || status == 503, let retryAfter else { return nil }
        return ImagePipeline.RetryPolicy.parseRetryAfter(retryAfter)
    }

    /// The response for `url` (the URL after redirects).
    func response(for url: URL) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: httpVersion, headerFields: fields)
    }
}
