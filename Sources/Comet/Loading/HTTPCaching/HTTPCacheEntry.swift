import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One stored response of ``HTTPCachingDataLoader``: the status, the header fields, when it was
/// received, and the body. Stored in a `DataCaching` as one blob: a magic number, the length of
/// a JSON header, the header, then the body.
///
/// The header fields are kept as the response gave them, except the ones that describe the
/// transfer rather than the body (`Content-Encoding`, `Transfer-Encoding`; loaders hand over
/// decoded bytes) and `Content-Length`, which is set to the stored body's length.
struct HTTPCacheEntry: Equatable, Sendable {
    /// The URL the response came from (after redirects).
    var url: URL
    var statusCode: Int
    var headers: [String: String]
    /// When the response was received, or last revalidated.
    var receivedAt: Date
    /// The response's `Date` (the time it was generated), or ``receivedAt`` when it had none;
    /// set to the time of a revalidation by a 304.
    var responseDate: Date
    var body: Data

    private struct Header: Codable {
        var url: String
        var status: Int
        var headers: [String: String]
        var receivedAt: Double
        var responseDate: Double
    }

    private static let magic = Data("CHC1".utf8)

    /// The entry for `response` and its complete `body`, received at `now`.
    init(response: HTTPURLResponse, body: Data, now: Date) {
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            switch name.lowercased() {
            case "content-encoding", "transfer-encoding", "content-length", "connection", "keep-alive": continue
            default: headers[name] = value
            }
        }
        headers["Content-Length"] = String(body.count)
        self.url = response.url ?? URL(fileURLWithPath: "/")
        self.statusCode = response.statusCode
        self.headers = headers
        self.receivedAt = now
        self.responseDate = Self.field("Date", in: headers).flatMap(HTTPDate.parse) ?? now
        self.body = body
    }

    /// The entry stored in `data`, or `nil` when `data` is not one (then it is ignored).
    init?(decoding data: Data) {
        guard data.count >= Self.magic.count + 4, data.prefix(Self.magic.count) == Self.magic else { return nil }
        let lengthStart = data.startIndex + Self.magic.count
        let length = data[lengthStart..<lengthStart + 4].reduce(0) { $0 << 8 | Int($1) }
        let headerStart = lengthStart + 4
        guard length <= data.count - Self.magic.count - 4,
            let header = try? JSONDecoder().decode(Header.self, from: data[headerStart..<headerStart + length]),
            let url = URL(string: header.url)
        else { return nil }
        self.url = url
        self.statusCode = header.status
        self.headers = header.headers
        self.receivedAt = Date(timeIntervalSince1970: header.receivedAt)
        self.responseDate = Date(timeIntervalSince1970: header.responseDate)
        self.body = Data(data[(headerStart + length)...])
    }

    /// The blob ``init(decoding:)`` reads back.
    func encoded() -> Data {
        let header = Header(
            url: url.absoluteString, status: statusCode, headers: headers,
            receivedAt: receivedAt.timeIntervalSince1970, responseDate: responseDate.timeIntervalSince1970)
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        var data = Self.magic
        let length = UInt32(json.count)
        data.append(contentsOf: [
            UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
        ])
        data.append(json)
        data.append(body)
        return data
    }

    /// The stored response, as a loader would have delivered it.
    var response: HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
    }

    /// The value of header `name` (case-insensitive).
    func header(_ name: String) -> String? { Self.field(name, in: headers) }

    static func field(_ name: String, in headers: [String: String]) -> String? {
        let lowercased = name.lowercased()
        return headers.first { $0.key.lowercased() == lowercased }?.value
    }
}
