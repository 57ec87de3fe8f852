import Foundation
import Locking
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The start of an HTTP download that did not finish, with what identifies the version of the
/// resource it belongs to, so that the next load of the same URL can ask for the rest only.
struct ResumableData: Sendable {
    /// The bytes received, from the first.
    let data: Data
    /// A strong `ETag`, else the `Last-Modified` date, of the response the bytes came from.
    let validator: String
    /// The full length the server announced.
    let totalLength: Int

    init(data: Data, validator: String, totalLength: Int) {
        self.data = data
        self.validator = validator
        self.totalLength = totalLength
    }

    /// The partial body of `response`, when it can be resumed: an HTTP 200 that accepts byte
    /// ranges, announced its length, has a strong validator, and is not content-encoded (a
    /// range of an encoded body would not be the rest of the decoded bytes).
    init?(data: Data, response: URLResponse?) {
        guard let http = response as? HTTPURLResponse, http.statusCode == 200, !data.isEmpty,
            http.expectedContentLength > Int64(data.count),
            http.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased() == "bytes",
            (http.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased() == "identity"
        else { return nil }
        if let etag = http.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/") {
            validator = etag
        } else if let modified = http.value(forHTTPHeaderField: "Last-Modified") {
            validator = modified
        } else {
            return nil
        }
        self.data = data
        self.totalLength = Int(http.expectedContentLength)
    }

    /// `request` asking for the bytes after ``data``, if the resource is still the same version.
    func resumingRequest(_ request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("bytes=\(data.count)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
        return request
    }

    /// Whether `response` is the rest of these bytes: a 206 whose `Content-Range` starts where
    /// ``data`` ends and has the same total length.
    func isContinued(by response: HTTPURLResponse) -> Bool {
        guard response.statusCode == 206, let range = response.value(forHTTPHeaderField: "Content-Range") else {
            return false
        }
        // "bytes START-END/TOTAL"
        let parts = range.lowercased().replacingOccurrences(of: "bytes", with: "").trimmingCharacters(in: .whitespaces)
            .split(whereSeparator: { $0 == "-" || $0 == "/" })
        guard parts.count == 3, let start = Int(parts[0]), let end = Int(parts[1]), let total = Int(parts[2]) else {
            return false
        }
        return start == data.count && total == totalLength && end == total - 1
    }
}

/// Partial downloads kept for resuming, by URL, bounded in bytes: the oldest entries go first.
/// An entry is taken (removed) when a load resumes from it. Thread-safe.
final class ResumableDataStore: Sendable {
    private struct State {
        var entries: [String: ResumableData] = [:]
        var order: [String] = []
        var totalBytes = 0
    }

    /// The most bytes kept in all.
    let byteLimit: Int
    private let state = Locked(State())

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// Keeps `resumable` for `url`, replacing what was kept for it; a partial larger than the
    /// limit is not kept.
    func store(_ resumable: ResumableData, for url: String) {
        guard resumable.data.count <= byteLimit else { return }
        state.withLock { state in
            Self.remove(url, from: &state)
            state.entries[url] = resumable
            state.order.append(url)
            state.totalBytes += resumable.data.count
            while state.totalBytes > byteLimit, let oldest = state.order.first {
                Self.remove(oldest, from: &state)
            }
        }
    }

    /// Removes and returns what was kept for `url`.
    func take(for url: String) -> ResumableData? {
        state.withLock { state in
            let entry = state.entries[url]
            Self.remove(url, from: &state)
            return entry
        }
    }

    /// Bytes kept (tests and diagnostics).
    var totalBytes: Int { state.withLock { $0.totalBytes } }

    /// Drops every entry.
    func removeAll() {
        state.withLock { $0 = State() }
    }

    private static func remove(_ url: String, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: url) else { return }
        state.totalBytes -= entry.data.count
        state.order.removeAll { $0 == url }
    }
}
