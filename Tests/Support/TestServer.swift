import FlyingFox
import FlyingSocks
import Foundation

/// A real HTTP server on 127.0.0.1 (ephemeral port), started inside the test process. Routes:
///
/// - `/images/NAME` — serves data registered with ``serve(_:at:)``
/// - `/status/CODE` — an empty response with that status
/// - `/slow/MILLISECONDS/NAME` — waits, then serves NAME
/// - `/drip/NAME?chunk=BYTES&interval=MILLISECONDS` — sends NAME in chunks with pauses
/// - `/redirect/N/NAME` — N redirects, then NAME; `/redirect-loop` redirects to itself
/// - `/basic/USER/PASSWORD/NAME` — NAME behind HTTP Basic authentication
/// - `/oversize` — announces 1 GiB and sends a little
///
/// - any path given to ``handle(_:with:)`` — answered by that handler (checked first)
///
/// Every request is counted by path (``requestCount(for:)``), so tests can see downloads.
public final class TestServer: @unchecked Sendable {
    // Mutable state sits behind `lock` (NSLock, which ThreadSanitizer sees).
    private let server: HTTPServer
    public let port: UInt16
    private let lock = NSLock()
    // Bytes, not `Data`: LeakSanitizer cannot follow the pointer inside `Data`'s representation
    // (it shares its word with tag bits), so assets kept by a process-wide shared server would be
    // reported as leaks by `make asan`. An array's buffer pointer is a plain word it can follow.
    private var assets: [String: [UInt8]] = [:]
    private var counts: [String: Int] = [:]
    private var handlers: [String: @Sendable (HTTPRequest) async throws -> HTTPResponse] = [:]
    private let runTask: Task<Void, any Error>

    public static func start() async throws -> TestServer {
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 300, pool: SharedSocketPool.shared,
            logger: .disabled)
        let runTask = Task { try await server.run() }
        // FlyingFox's default wait is 5 s: too short when the whole suite runs in parallel on
        // two loaded cores (a start took longer than that in a full run). Still bounded.
        try await server.waitUntilListening(timeout: 30)
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw TestServerError.noPort }
        let testServer = TestServer(server: server, port: port, runTask: runTask)
        await server.appendRoute("GET *") { [weak testServer] request in
            guard let testServer else { return HTTPResponse(statusCode: .internalServerError) }
            return try await testServer.respond(to: request)
        }
        return testServer
    }

    private init(server: HTTPServer, port: UInt16, runTask: Task<Void, any Error>) {
        self.server = server
        self.port = port
        self.runTask = runTask
    }

    // The server's sockets wait on the process's one `SharedSocketPool`. Its run is cancelled
    // before the listening socket is closed (FlyingFox closes it once the run has ended), so no
    // wait is left registered for a descriptor that is closed and may be reused by another
    // server's socket: `HTTPServer.stop()` closes first, and is not used.
    deinit { runTask.cancel() }

    /// Stops the server: its connections are cancelled, then its listening socket is closed.
    public func stop() async {
        runTask.cancel()
        _ = await runTask.result
    }

    /// Registers `data` under `/images/NAME`.
    public func serve(_ data: Data, at name: String) {
        let bytes = [UInt8](data)
        lock.withLock { assets[name] = bytes }
    }

    /// Answers requests for exactly `path` (no query) with `handler`, ahead of the built-in routes.
    public func handle(_ path: String, with handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        lock.withLock { handlers[path] = handler }
    }

    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? path : "/" + path)")!
    }

    public func imageURL(_ name: String) -> URL { url("/images/\(name)") }

    public func requestCount(for path: String) -> Int { lock.withLock { counts[path] ?? 0 } }

    public var totalRequestCount: Int { lock.withLock { counts.values.reduce(0, +) } }

    private func assetData(_ name: String) -> Data? {
        lock.withLock { assets[name] }.map { Data($0) }
    }

    private func asset(_ name: String) -> HTTPResponse {
        guard let data = assetData(name) else { return HTTPResponse(statusCode: .notFound) }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/*"], body: data)
    }

    private func respond(to request: HTTPRequest) async throws -> HTTPResponse {
        let handler = lock.withLock {
            counts[request.path, default: 0] += 1
            return handlers[request.path]
        }
        if let handler { return try await handler(request) }
        let parts = request.path.split(separator: "/").map(String.init)
        switch parts.first {
        case "images" where parts.count == 2:
            return asset(parts[1])
        case "status" where parts.count == 2:
            return HTTPResponse(statusCode: HTTPStatusCode(Int(parts[1]) ?? 500, phrase: "Test"))
        case "slow" where parts.count == 3:
            try await Task.sleep(for: .milliseconds(Int(parts[1]) ?? 0))
            return asset(parts[2])
        case "drip" where parts.count == 2:
            guard let data = assetData(parts[1]) else { return HTTPResponse(statusCode: .notFound) }
            let chunk = Int(request.query["chunk"] ?? "") ?? 1024
            let interval = Int(request.query["interval"] ?? "") ?? 20
            let body = HTTPBodySequence(
                from: DripSequence(data: data, chunkSize: chunk, interval: interval), count: data.count,
                suggestedBufferSize: chunk)
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/*"], body: body)
        case "chunked" where parts.count == 2:
            // No Content-Length: the body is sent with chunked transfer encoding.
            guard let data = assetData(parts[1]) else { return HTTPResponse(statusCode: .notFound) }
            let body = HTTPBodySequence(
                from: DripSequence(data: data, chunkSize: 4096, interval: 0), suggestedBufferSize: 4096)
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/*"], body: body)
        case "redirect" where parts.count == 3:
            let remaining = Int(parts[1]) ?? 0
            let location = remaining <= 1 ? "/images/\(parts[2])" : "/redirect/\(remaining - 1)/\(parts[2])"
            return HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: location]), body: Data())
        case "redirect-loop":
            return HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: "/redirect-loop"]), body: Data())
        case "basic" where parts.count == 4:
            let expected = "Basic " + Data("\(parts[1]):\(parts[2])".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else {
                return HTTPResponse(
                    statusCode: .unauthorized, headers: [HTTPHeader("WWW-Authenticate"): "Basic realm=\"comet\""],
                    body: Data("<html>401 Unauthorized</html>".utf8))
            }
            return asset(parts[3])
        case "oversize":
            return HTTPResponse(
                statusCode: .ok, headers: [.contentLength: String(1 << 30)], body: Data(repeating: 0, count: 16))
        default:
            return HTTPResponse(statusCode: .notFound)
        }
    }
}

public enum TestServerError: Error { case noPort }

/// Bytes of `data` delivered `chunkSize` at a time with a pause before each chunk.
public struct DripSequence: AsyncBufferedSequence, Sendable {
    public typealias Element = UInt8
    let data: Data
    let chunkSize: Int
    let interval: Int

    /// `data` in chunks of `chunkSize` bytes, each after a pause of `interval` milliseconds.
    public init(data: Data, chunkSize: Int, interval: Int) {
        self.data = data
        self.chunkSize = chunkSize
        self.interval = interval
    }

    public func makeAsyncIterator() -> Iterator { Iterator(data: data, chunkSize: chunkSize, interval: interval) }

    public struct Iterator: AsyncBufferedIteratorProtocol {
        let data: Data
        let chunkSize: Int
        let interval: Int
        var offset = 0

        public mutating func next() async throws -> UInt8? {
            guard offset < data.count else { return nil }
            defer { offset += 1 }
            return data[data.startIndex + offset]
        }

        public mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard offset < data.count else { return nil }
            if offset > 0 { try await Task.sleep(for: .milliseconds(interval)) }
            let end = Swift.min(data.count, offset + Swift.min(count, chunkSize))
            defer { offset = end }
            return data[(data.startIndex + offset)..<(data.startIndex + end)]
        }
    }
}
