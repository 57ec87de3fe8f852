import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// Redirects through real loopback servers: credentials set on a request reach the server
/// that was asked and servers on the same origin, never a server on another port.
@Suite("Redirects end to end", .timeLimit(.minutes(10)))
struct RedirectEndToEndTests {
    /// Serves an image at `/target` and records the credential headers it was sent.
    private func makeTarget() async throws -> (TestServer, Locked<[String?]>) {
        let server = try await TestServer.start()
        let seen = Locked<[String?]>([])
        let image = TestImages.png(width: 8, height: 8)
        server.handle("/target") { request in
            seen.withLock { $0 = [request.headers[.authorization], request.headers[HTTPHeader("Cookie")]] }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png"], body: image)
        }
        return (server, seen)
    }

    private func request(_ url: URL) -> ImageRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        urlRequest.setValue("session=1", forHTTPHeaderField: "Cookie")
        return ImageRequest(urlRequest: urlRequest)
    }

    @Test func redirectToAnotherPortDropsAuthorizationAndCookie() async throws {
        let (target, seen) = try await makeTarget()
        let origin = try await TestServer.start()
        let location = target.url("/target").absoluteString
        origin.handle("/start") { _ in HTTPResponse(statusCode: .found, headers: [.location: location], body: Data()) }
        let (pipeline, _) = makeRealPipeline()
        let image = try await pipeline.image(for: request(origin.url("/start")))
        #expect(image.width == 8)
        #expect(target.requestCount(for: "/target") == 1)
        #expect(seen.withLock { $0 } == [nil, nil])
    }

    @Test func redirectWithinTheSameOriginKeepsAuthorizationAndCookie() async throws {
        let (server, seen) = try await makeTarget()
        server.handle("/start") { _ in HTTPResponse(statusCode: .found, headers: [.location: "/target"], body: Data()) }
        let (pipeline, _) = makeRealPipeline()
        _ = try await pipeline.image(for: request(server.url("/start")))
        #expect(seen.withLock { $0 } == ["Bearer secret", "session=1"])
    }
}
