import FlyingFox
import Foundation

/// The demo's embedded HTTP server: serves the gallery on 127.0.0.1 at an ephemeral port.
///
/// Routes:
/// - `GET /gallery/NAME` — the asset's bytes with its content type and length
/// - `GET /gallery.json` — the list of assets (name, size, format, bytes)
/// - anything else — 404
///
/// Requests are counted, so the demo can show how many actually reached the network.
final class DemoServer: Sendable {
    private let server: HTTPServer
    private let runTask: Task<Void, any Error>
    /// The port the server listens on.
    let port: UInt16
    private let counter: RequestCounter

    /// Starts serving `assets`; returns once the server is listening.
    static func start(serving assets: [GalleryAsset]) async throws -> DemoServer {
        let table = Dictionary(assets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let counter = RequestCounter()
        let listing = try JSONSerialization.data(
            withJSONObject: assets.map {
                [
                    "name": $0.name, "width": $0.width, "height": $0.height, "format": $0.kind.rawValue,
                    "bytes": $0.data.count,
                ] as [String: Any]
            }, options: [.prettyPrinted, .sortedKeys])
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        await server.appendRoute("GET /gallery.json") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: listing)
        }
        await server.appendRoute("GET /gallery/:name") { request in
            await counter.increment()
            let name = request.path.split(separator: "/").last.map(String.init) ?? ""
            guard let asset = table[name] else { return HTTPResponse(statusCode: .notFound) }
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: asset.contentType],
                body: HTTPBodySequence(data: asset.data, suggestedBufferSize: 64 << 10))
        }
        let runTask = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            runTask.cancel()
            throw DemoServerError.noPort
        }
        return DemoServer(server: server, runTask: runTask, port: port, counter: counter)
    }

    private init(server: HTTPServer, runTask: Task<Void, any Error>, port: UInt16, counter: RequestCounter) {
        self.server = server
        self.runTask = runTask
        self.port = port
        self.counter = counter
    }

    /// `http://127.0.0.1:PORT`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of the asset named `name`.
    func url(for name: String) -> URL {
        baseURL.appendingPathComponent("gallery").appendingPathComponent(name)
    }

    /// Image requests served so far.
    var requestCount: Int {
        get async { await counter.value }
    }

    /// Stops the server, giving open connections `timeout` seconds to finish.
    func stop(timeout: Double = 1) async {
        await server.stop(timeout: timeout)
        runTask.cancel()
    }
}

/// Counts requests (an actor, so route handlers on any task may bump it).
private actor RequestCounter {
    var value = 0
    func increment() { value += 1 }
}

/// Why the demo server could not start.
enum DemoServerError: Error, CustomStringConvertible {
    case noPort

    var description: String { "the demo server started but reported no listening port" }
}
