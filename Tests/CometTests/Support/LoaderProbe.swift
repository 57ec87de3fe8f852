import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Locking
@testable import Comet
import CometTestSupport

/// Loads through a ``DataLoading`` and records what its callbacks passed.
enum LoaderProbe {
    struct Result: Sendable {
        var count = 0
        var chunks = 0
        var response: URLResponse?
        var error: (any Error)?

        func ending(with error: (any Error)?) -> Result {
            var copy = self
            copy.error = error
            return copy
        }
    }

    static func load(
        _ loader: any DataLoading, _ url: URL, delivery: DataDelivery = .eachChunk,
        onChunk: @escaping @Sendable (Data) -> Void = { _ in }
    ) async -> Result {
        await load(loader, URLRequest(url: url), delivery: delivery, onChunk: onChunk)
    }

    static func load(
        _ loader: any DataLoading, _ request: URLRequest, delivery: DataDelivery = .eachChunk,
        onChunk: @escaping @Sendable (Data) -> Void = { _ in }
    ) async -> Result {
        let collected = Locked(Result())
        return await withCheckedContinuation { continuation in
            _ = loader.loadData(
                with: request, delivery: delivery,
                didReceiveData: { data, response in
                    collected.withLock {
                        $0.count += data.count
                        $0.chunks += 1
                        $0.response = response
                    }
                    onChunk(data)
                },
                completion: { error in
                    continuation.resume(returning: collected.withLock { $0.ending(with: error) })
                })
        }
    }

    /// `server` (a new one by default) answering `path` with a cookie in every response, and
    /// the `Cookie` header of every request to it.
    static func cookieSettingServer(
        on shared: TestServer? = nil, path: String = "/cookie"
    ) async throws -> (TestServer, Locked<[String?]>) {
        let server: TestServer
        if let shared { server = shared } else { server = try await TestServer.start() }
        let cookiesSeen = Locked<[String?]>([])
        server.handle(path) { request in
            cookiesSeen.withLock { $0.append(request.headers[HTTPHeader("Cookie")]) }
            return HTTPResponse(
                statusCode: .ok, headers: [HTTPHeader("Set-Cookie"): "session=abc; Path=/"],
                body: Data(repeating: 5, count: 100))
        }
        return (server, cookiesSeen)
    }
}
