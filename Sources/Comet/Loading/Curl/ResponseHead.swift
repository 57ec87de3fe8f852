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
    /// the head. Works on the bytes (ASCII): no Unicode lowercasing or trimming per line.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 { return true }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if bytes.starts(with: Self.statusPrefix) {
            // A new head (an interim 1xx, or the next attempt's): start over.
            self = ResponseHead()
            let space = bytes.firstIndex(of: 0x20) ?? bytes.count
            httpVersion = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<space]), as: UTF8.self)
            var code = 0
            var index = space
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            while index < bytes.count, (0x30...0x39).contains(bytes[index]), code < 1000 {
                code = code * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            status = code
            return false
        }
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return false }
        let nameBytes = Self.trimmed(UnsafeRawBufferPointer(rebasing: bytes[0..<colon]))
        let valueBytes = Self.trimmed(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)...]))
        guard !nameBytes.isEmpty else { return false }
        let name = String(decoding: nameBytes, as: UTF8.self)
        let value = String(decoding: valueBytes, as: UTF8.self)
        if let existing = fields[name] {
            fields[name] = existing + ", " + value
        } else {
            fields[name] = value
        }
        if Self.equalsIgnoringCase(nameBytes, "location") {
            location = value
        } else if Self.equalsIgnoringCase(nameBytes, "content-length") {
            contentLength = Int64(value)
        } else if Self.equalsIgnoringCase(nameBytes, "content-encoding") {
            contentEncoding = value.lowercased()
        } else if Self.equalsIgnoringCase(nameBytes, "retry-after") {
            retryAfter = value
        } else if challenge == nil,
            Self.equalsIgnoringCase(nameBytes, "www-authenticate")
                || Self.equalsIgnoringCase(nameBytes, "proxy-authenticate")
        {
            challenge = value
        }
        return false
    }

    private static let statusPrefix: [UInt8] = Array("HTTP/".utf8)

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether `bytes` spell `lowercase` in any ASCII case.
    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
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
