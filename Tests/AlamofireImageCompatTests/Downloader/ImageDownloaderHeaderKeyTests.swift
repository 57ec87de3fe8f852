import AlamofireImageCompat
import CometTestSupport
import FlyingFox
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests of one URL whose headers differ (two users' credentials) never share a download
/// or a cached image; plain requests keep AlamofireImage's URL-string keys.
@Suite("ImageDownloader header keys", .timeLimit(.minutes(10)))
struct ImageDownloaderHeaderKeyTests {
    let server: AFIServer
    let recorder = Recorder<Completion>()

    init() async throws {
        server = try await AFIServer.start()
        // Alice's avatar is 10 pixels wide, everyone else's 20.
        server.server.handle("/me/avatar") { request in
            let width = request.headers[.authorization] == "alice" ? 10 : 20
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "image/png"], body: TestImages.png(width: width, height: 4))
        }
    }

    func request(for user: String) -> URLRequest {
        var request = URLRequest(url: server.server.url("/me/avatar"))
        request.setValue(user, forHTTPHeaderField: "Authorization")
        return request
    }

    @Test func concurrentDownloadsWithDifferentCredentialsEachGetTheirOwnImage() async throws {
        let cache = AutoPurgingImageCache()
        let downloader = ImageDownloader(imageCache: cache)
        let alice = downloader.downloadImage(URLRequest: request(for: "alice"), completion: recorder.handler("alice"))
        let bob = downloader.downloadImage(URLRequest: request(for: "bob"), completion: recorder.handler("bob"))
        #expect(alice?.request !== bob?.request)
        #expect(await eventually { recorder.count == 2 })
        let byTag = Dictionary(uniqueKeysWithValues: recorder.values.map { ($0.tag, $0) })
        #expect(byTag["alice"]?.image?.width == 10)
        #expect(byTag["bob"]?.image?.width == 20)
        #expect(cache.imageForRequest(request(for: "alice"))?.width == 10)
        #expect(cache.imageForRequest(request(for: "bob"))?.width == 20)
        #expect(cache.imageForRequest(URLRequest(url: server.server.url("/me/avatar"))) == nil)
    }

    @Test func aPlainRequestIsCachedUnderItsURLString() async throws {
        let cache = AutoPurgingImageCache()
        let url = server.serve(TestImages.png(width: 12, height: 4), at: "plain.png")
        ImageDownloader(imageCache: cache).downloadImage(
            URLRequest: URLRequest(url: url), filter: CircleFilter(),
            completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        #expect(cache.imageWithIdentifier(url.absoluteString + "-CircleFilter") != nil)
    }
}
