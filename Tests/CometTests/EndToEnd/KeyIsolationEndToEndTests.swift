import FlyingFox
import Foundation
import Testing
@testable import Comet
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Through the real server and the real data loader: two users' requests for one URL each get
/// their own image, from the network, the memory cache and the disk cache.
@Suite("KeyIsolation end to end", .timeLimit(.minutes(10)))
struct KeyIsolationEndToEndTests {
    func startServer() async throws -> TestServer {
        let server = try await TestServer.start()
        // Alice's avatar is 10 pixels wide, everyone else's 20; answered after 200 ms so the
        // two requests overlap.
        server.handle("/me/avatar") { request in
            try await Task.sleep(for: .milliseconds(200))
            let width = request.headers[.authorization] == "alice" ? 10 : 20
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "image/png"], body: TestImages.png(width: width, height: 4))
        }
        return server
    }

    func request(_ server: TestServer, user: String) -> ImageRequest {
        var urlRequest = URLRequest(url: server.url("/me/avatar"))
        urlRequest.setValue(user, forHTTPHeaderField: "Authorization")
        return ImageRequest(urlRequest: urlRequest)
    }

    @Test func concurrentRequestsWithDifferentCredentialsEachGetTheirOwnImage() async throws {
        let server = try await startServer()
        let pipeline = ImagePipeline { $0.imageCache = ImageCache() }
        async let alice = pipeline.image(for: request(server, user: "alice"))
        async let bob = pipeline.image(for: request(server, user: "bob"))
        #expect(try await alice.width == 10)
        #expect(try await bob.width == 20)
        #expect(server.requestCount(for: "/me/avatar") == 2)
        #expect(pipeline.cache[request(server, user: "alice")]?.image.width == 10)
        #expect(pipeline.cache[request(server, user: "bob")]?.image.width == 20)
    }

    @Test func theDiskCacheKeepsEachCredentialsImageApart() async throws {
        let server = try await startServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("comet-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = DataCache(path: directory)
        let first = ImagePipeline {
            $0.dataCache = disk; $0.imageCache = nil
        }
        _ = try await first.image(for: request(server, user: "alice"))
        #expect(await eventually { disk.containsData(for: request(server, user: "alice").dataKey) })
        let second = ImagePipeline {
            $0.dataCache = disk; $0.imageCache = nil
        }
        #expect(
            try await second.image(for: request(server, user: "bob")).width == 20,
            "Bob's request is not answered with Alice's bytes")
        #expect(try await second.image(for: request(server, user: "alice")).width == 10)
        #expect(server.requestCount(for: "/me/avatar") == 2, "Alice's second load came from the disk")
    }
}
