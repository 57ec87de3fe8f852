import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A raw TCP server on 127.0.0.1 that misbehaves on purpose, for the faults a well-behaved HTTP
/// server library cannot produce:
///
/// - `/short` — announces 10 000 bytes, sends 1 000, closes cleanly
/// - `/reset` — announces 10 000 bytes, sends 1 000, then resets the connection (RST)
/// - `/stall` — sends the headers and 100 bytes, then nothing until the client gives up
/// - `/overlong` — announces half of ``image``'s length, then sends all of it
/// - `/reset-once` — the first request is reset like `/reset`; later ones get ``image`` whole
///
/// Requests are counted by path (``requestCount(for:)``).
/// Each connection is served on its own thread; the server stops when released.
public final class FaultServer: @unchecked Sendable {
    // Immutable after init; the accept thread only reads the listening socket.
    public let port: UInt16
    /// The body of `/overlong`.
    public let image: Data
    private let listener: Int32
    private let counts = PathCounts()

    public init(image: Data = Data()) throws {
        self.image = image
        let (listener, port) = try LoopbackListener.open()
        self.listener = listener
        self.port = port
        let thread = Thread { [listener, image, counts] in Self.acceptLoop(listener, image: image, counts: counts) }
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many requests for `path` arrived.
    public func requestCount(for path: String) -> Int { counts.count(for: path) }

    private static func acceptLoop(_ listener: Int32, image: Data, counts: PathCounts) {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread { serve(client, image: image, counts: counts) }.start()
        }
    }

    private static func serve(_ client: Int32, image: Data, counts: PathCounts) {
        var request = [UInt8](repeating: 0, count: 4096)
        let count = recv(client, &request, request.count, 0)
        let line = count > 0 ? String(decoding: request[0..<count], as: UTF8.self) : ""
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        func write(_ text: String) { _ = text.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
        let body = String(repeating: "x", count: 1000)
        let hits = counts.increment(path)
        switch path {
        case "/reset-once" where hits > 1:
            write("HTTP/1.1 200 OK\r\nContent-Length: \(image.count)\r\nConnection: close\r\n\r\n")
            _ = image.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        case "/short":
            write("HTTP/1.1 200 OK\r\nContent-Length: 10000\r\nConnection: close\r\n\r\n" + body)
            close(client)
        case "/reset", "/reset-once":
            write("HTTP/1.1 200 OK\r\nContent-Length: 10000\r\n\r\n" + body)
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(client)
        case "/overlong":
            write("HTTP/1.1 200 OK\r\nContent-Length: \(image.count / 2)\r\nConnection: close\r\n\r\n")
            _ = image.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        case "/stall":
            write("HTTP/1.1 200 OK\r\nContent-Length: 10000\r\n\r\n" + String(repeating: "x", count: 100))
            // Hold the connection until the client closes it (bounded: 30 s at most).
            var buffer = [UInt8](repeating: 0, count: 16)
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = recv(client, &buffer, buffer.count, 0)
            close(client)
        default:
            write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            close(client)
        }
    }
}

public enum FaultServerError: Error { case socket }

/// Requests per path (behind a lock: the connection threads count, tests read).
private final class PathCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func increment(_ path: String) -> Int {
        lock.withLock {
            counts[path, default: 0] += 1
            return counts[path]!
        }
    }

    func count(for path: String) -> Int { lock.withLock { counts[path] ?? 0 } }
}
