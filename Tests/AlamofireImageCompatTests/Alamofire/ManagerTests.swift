import AlamofireImageCompat
import CometTestSupport
import FlyingFox
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Alamofire 3's `Manager`, `Request.task` identity and `request.delegate.credential`, through
/// a real server on 127.0.0.1.
@Suite("Alamofire Manager", .timeLimit(.minutes(10)))
struct ManagerTests {
    /// The process's shared server (see `SharedTestServer`), as the AlamofireImage tests use it.
    static func server() async throws -> AFIServer {
        Request.addAcceptableImageContentTypes(["image/*"])
        return AFIServer(server: try await SharedTestServer.common.server)
    }

    /// A configuration without a disk cache, adding `X-App: legacy` to every request.
    private func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-App": "legacy"]
        configuration.urlCache = nil
        return configuration
    }

    /// Serves a PNG at `/headers/NAME`, recording the `X-App` header each request carried.
    private func serveRecordingHeaders(_ server: AFIServer, _ name: String) -> (URL, Recorder<String>) {
        let seen = Recorder<String>()
        let png = TestImages.png()
        server.server.handle("/headers/\(name)") { request in
            seen.append(request.headers[HTTPHeader("X-App")] ?? "")
            return HTTPResponse(
                statusCode: .ok, headers: HTTPHeaders([HTTPHeader("Content-Type"): "image/png"]), body: png)
        }
        return (server.server.url("/headers/\(name)"), seen)
    }

    @Test func sharedInstanceIsOneManager() {
        #expect(Manager.sharedInstance === Manager.sharedInstance)
    }

    @Test func aManagersRequestsCarryItsConfigurationsHeaders() async throws {
        let server = try await Self.server()
        let (url, seen) = serveRecordingHeaders(server, "a.png")
        let done = Recorder<Int>()
        Manager(configuration: configuration()).request(.GET, url).response { _, response, _, _ in
            done.append(response?.statusCode ?? 0)
        }
        #expect(await eventually { done.count == 1 })
        #expect(done.values == [200])
        #expect(seen.values == ["legacy"])
    }

    @Test func startRequestsImmediatelyFalseLeavesRequestsSuspended() async throws {
        let server = try await Self.server()
        let (url, seen) = serveRecordingHeaders(server, "b.png")
        let manager = Manager(configuration: configuration())
        manager.startRequestsImmediately = false
        let request = manager.request(.GET, url)
        #expect(request.task.state == .suspended)
        request.resume()
        let done = Recorder<Bool>()
        request.response { _, _, _, _ in done.append(true) }
        #expect(await eventually { done.count == 1 })
        #expect(seen.count == 1)
    }

    @Test func theSessionHasTheManagersConfiguration() {
        let configuration = configuration()
        configuration.timeoutIntervalForRequest = 17
        let manager = Manager(configuration: configuration)
        #expect(manager.session.configuration.timeoutIntervalForRequest == 17)
        #expect(manager.session === manager.session)
    }

    @Test func anImageDownloaderOnAManagerUsesItsConfiguration() async throws {
        let server = try await Self.server()
        let (url, seen) = serveRecordingHeaders(server, "c.png")
        let manager = Manager(configuration: configuration())
        manager.startRequestsImmediately = false
        let downloader = ImageDownloader(sessionManager: manager, imageCache: nil)
        let recorder = Recorder<Completion>()
        downloader.downloadImage(URLRequest: url, completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.image != nil)
        #expect(seen.values == ["legacy"])
        #expect(downloader.sessionManager === manager)
    }

    @Test func aRequestsTaskEqualsItselfOnly() {
        let manager = Manager(configuration: configuration())
        manager.startRequestsImmediately = false
        let first = manager.request(.GET, "http://127.0.0.1:9/a.png")
        let second = manager.request(.GET, "http://127.0.0.1:9/a.png")
        #expect(first.task == first.task)
        #expect(first.task != second.task)
        #expect(Set([first.task, second.task, first.task]).count == 2)
    }

    @Test func theDelegatesCredentialIsTheRequestsCredential() {
        let manager = Manager(configuration: configuration())
        manager.startRequestsImmediately = false
        let request = manager.request(.GET, "http://127.0.0.1:9/a.png")
        #expect(request.delegate.credential == nil)
        request.authenticate(user: "alice", password: "wonderland")
        #expect(request.delegate.credential?.user == "alice")
        request.delegate.credential = URLCredential(user: "bob", password: "builder", persistence: .forSession)
        #expect(request.credential?.user == "bob")
    }

    @Test func aCredentialSetOnTheDelegateAnswersTheChallenge() async throws {
        let server = try await Self.server()
        server.server.serve(TestImages.png(), at: "manager-secret.png")
        let manager = Manager(configuration: configuration())
        manager.startRequestsImmediately = false
        let request = manager.request(.GET, server.server.url("/basic/alice/wonderland/manager-secret.png"))
        request.delegate.credential = URLCredential(user: "alice", password: "wonderland", persistence: .forSession)
        let done = Recorder<Int>()
        request.response { _, response, _, _ in done.append(response?.statusCode ?? 0) }
        request.resume()
        #expect(await eventually { done.count == 1 })
        #expect(done.values == [200])
        #expect(request.delegate.error == nil)
    }
}
