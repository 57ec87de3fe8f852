import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A raw HTTP server on 127.0.0.1 that serves one body with `Accept-Ranges: bytes` and an
/// `ETag`, for resumable-download tests. It answers `Range: bytes=N-` with a 206 when `If-Range`
/// names the current ETag (else 200 with the whole body), can cut full responses short on
/// purpose, and counts the body bytes it actually sent.
///
/// Each connection is served on its own thread; the server stops when released.
public final class RangeServer: @unchecked Sendable {
    /// How the server behaves; change it between loads.
    public struct Behaviour: Sendable {
        /// The body's current ETag.
        public var etag = "\"v1\""
        /// Cut the next `dropsRemaining` full (200) responses after this fraction of the body,
        /// closing the connection (the client sees fewer bytes than Content-Length).
        public var dropFraction = 0.6
        public var dropsRemaining = 1
        /// Answer range requests with 200 and the whole body, as a server without ranges would.
        public var ignoresRanges = false
        /// Added to the start of the `Content-Range` of a 206 (non-zero: a range that does not
        /// continue what the client has).
        public var contentRangeSkew = 0

        public init() {}
    }

    /// One request as the server saw it.
    public struct Received: Sendable, Equatable {
        public let range: String?
        public let ifRange: String?

        public init(range: String?, ifRange: String?) {
            self.range = range
            self.ifRange = ifRange
        }
    }

    public let port: UInt16
    public let body: Data
    private let listener: Int32
    private let core: Core

    public init(body: Data) throws {
        self.body = body
        let (listener, port) = try LoopbackListener.open()
        self.listener = listener
        self.port = port
        let core = Core(body: body)
        self.core = core
        // The accept thread holds the core, not the server: releasing the server closes the port.
        Thread { Self.acceptLoop(listener, core: core) }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/image")! }

    /// Changes how later requests are answered.
    public func update(_ change: (inout Behaviour) -> Void) { core.withState { change(&$0.behaviour) } }

    /// Body bytes written to clients so far (headers not counted).
    public var bodyBytesSent: Int { core.withState { $0.bodyBytesSent } }

    /// The requests received, in order.
    public var requests: [Received] { core.withState { $0.requests } }

    private static func acceptLoop(_ listener: Int32, core: Core) {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread { core.serve(client) }.start()
        }
    }
}

/// The body and the counters, shared by the connection threads (behind a lock).
private final class Core: @unchecked Sendable {
    typealias Behaviour = RangeServer.Behaviour
    typealias Received = RangeServer.Received

    struct State {
        var behaviour = Behaviour()
        var bodyBytesSent = 0
        var requests: [Received] = []
    }

    let body: Data
    private let lock = NSLock()
    private var current = State()

    init(body: Data) { self.body = body }

    func withState<T>(_ change: (inout State) -> T) -> T {
        lock.withLock { change(&current) }
    }

    private func readHeaders(_ client: Int32) -> [String: String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !bytes.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        var headers: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return headers
    }

    func serve(_ client: Int32) {
        defer { close(client) }
        let headers = readHeaders(client)
        let received = Received(range: headers["range"], ifRange: headers["if-range"])
        let (behaviour, drops) = withState { state -> (Behaviour, Bool) in
            state.requests.append(received)
            let continues =
                received.range != nil && received.ifRange == state.behaviour.etag && !state.behaviour.ignoresRanges
            let drops = !continues && state.behaviour.dropsRemaining > 0
            if drops { state.behaviour.dropsRemaining -= 1 }
            return (state.behaviour, drops)
        }
        var start = 0
        if let range = received.range, received.ifRange == behaviour.etag, !behaviour.ignoresRanges,
            let offset = Int(range.replacingOccurrences(of: "bytes=", with: "").dropLast()), offset < body.count
        {
            start = offset
        }
        var head: String
        if start > 0 {
            let shown = start + behaviour.contentRangeSkew
            head = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(shown)-\(body.count - 1)/\(body.count)\r\n"
        } else {
            head = "HTTP/1.1 200 OK\r\n"
        }
        head += "Content-Length: \(body.count - start)\r\nAccept-Ranges: bytes\r\nETag: \(behaviour.etag)\r\n"
        head += "Content-Type: image/png\r\nConnection: close\r\n\r\n"
        _ = head.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        let end = drops ? Int(Double(body.count) * behaviour.dropFraction) : body.count
        let sent = body[start..<end].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        withState { $0.bodyBytesSent += max(0, sent) }
    }
}
