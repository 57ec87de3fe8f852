import FlyingFox
import Foundation

/// An in-process HTTP server on 127.0.0.1 (FlyingFox, an ephemeral port) serving the workloads:
/// `/photo/N` (the 1024×768 JPEGs), `/large/N` (the 8000×6000 JPEGs) and `/png/N`.
public final class LoopbackServer: Sendable {
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port the server listens on.
    public let port: UInt16

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    /// Starts a server and waits until it listens.
    public static func start() async throws -> LoopbackServer {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled)
        for (route, files) in [("photo", Workloads.photos), ("large", Workloads.largePhotos), ("png", Workloads.pngs)] {
            let pattern = HTTPRoute(stringLiteral: "GET /\(route)/*")
            await server.appendRoute(pattern) { request in
                guard let index = Int(request.path.split(separator: "/").last ?? ""), files.indices.contains(index)
                else {
                    return HTTPResponse(statusCode: .notFound)
                }
                return HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "image/\(route == "png" ? "png" : "jpeg")"],
                    body: files[index])
            }
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw URLError(.cannotConnectToHost)
        }
        return LoopbackServer(server: server, task: task, port: port)
    }

    /// The URL of workload `index` of `kind` ("photo", "large" or "png").
    public func url(_ kind: String, _ index: Int) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(kind)/\(index)")!
    }

    /// Stops listening.
    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }
}
