import AlamofireImageCompat
import CometTestSupport
import FlyingFox
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The disk cache an AlamofireImage app had from `URLCache`, on Comet's `DataCache`: a second
/// downloader (as after a relaunch) does not touch the origin for a fresh image, revalidates a
/// stale one, never stores `no-store`, and `diskCapacity = 0` turns it off.
@Suite("ImageDownloader disk cache", .timeLimit(.minutes(10)))
struct ImageDownloaderURLCacheTests {
    /// The process's shared server (see `SharedTestServer`), as the AlamofireImage tests use it.
    static func server() async throws -> AFIServer {
        Request.addAcceptableImageContentTypes(["image/*"])
        return AFIServer(server: try await SharedTestServer.common.server)
    }

    /// A configuration whose URL cache lives in a new temporary folder, `diskCapacity` bytes.
    private func configuration(diskCapacity: Int = 10 << 20) -> URLSessionConfiguration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("afi-cache-\(UUID().uuidString)")
        let configuration = ImageDownloader.defaultURLSessionConfiguration()
        configuration.urlCache = URLCache(memoryCapacity: 0, diskCapacity: diskCapacity, diskPath: folder.path)
        return configuration
    }

    /// Serves a PNG at `/afi-cached/NAME` with `headers`, answering 304 to `If-None-Match: "v1"`.
    private func serve(_ server: AFIServer, _ name: String, headers: [String: String]) -> (URL, Recorder<Int>) {
        let statuses = Recorder<Int>()
        let png = TestImages.png(width: 12, height: 10)
        server.server.handle("/afi-cached/\(name)") { request in
            if request.headers[HTTPHeader("If-None-Match")] == "\"v1\"" {
                statuses.append(304)
                return HTTPResponse(statusCode: HTTPStatusCode(304, phrase: "Not Modified"))
            }
            statuses.append(200)
            var fields = HTTPHeaders([HTTPHeader("Content-Type"): "image/png"])
            for (name, value) in headers { fields[HTTPHeader(name)] = value }
            return HTTPResponse(statusCode: .ok, headers: fields, body: png)
        }
        return (server.server.url("/afi-cached/\(name)"), statuses)
    }

    /// Downloads `url` with a new downloader on `configuration` (no image cache) and waits.
    private func download(_ url: URL, _ configuration: URLSessionConfiguration) async -> Completion? {
        let recorder = Recorder<Completion>()
        ImageDownloader(configuration: configuration, imageCache: nil).downloadImage(
            URLRequest: url, completion: recorder.handler())
        _ = await eventually { recorder.count == 1 }
        return recorder.values.first
    }

    @Test func theDefaultURLCacheHas150MBOnDiskOutsideTheWorkingDirectory() {
        let cache = ImageDownloader.defaultURLCache()
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("com.alamofire.imagedownloader")
        #expect(cache.memoryCapacity == 20 * 1024 * 1024)
        #expect(cache.diskCapacity == 150 * 1024 * 1024)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aFreshImageComesFromDiskInASecondDownloader() async throws {
        let server = try await Self.server()
        let (url, statuses) = serve(server, "fresh.png", headers: ["Cache-Control": "max-age=3600"])
        let configuration = configuration()
        let first = await download(url, configuration)
        let second = await download(url, configuration)
        #expect(first?.image?.width == 12 && second?.image?.width == 12)
        #expect(second?.response.response?.statusCode == 200)
        #expect(statuses.values == [200])
    }

    @Test func aStaleImageIsRevalidatedWith304() async throws {
        let server = try await Self.server()
        let (url, statuses) = serve(server, "stale.png", headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let configuration = configuration()
        _ = await download(url, configuration)
        let second = await download(url, configuration)
        #expect(second?.image?.width == 12)
        #expect(statuses.values == [200, 304])
    }

    @Test func aNoStoreImageIsNeverStored() async throws {
        let server = try await Self.server()
        let (url, statuses) = serve(server, "private.png", headers: ["Cache-Control": "no-store", "ETag": "\"v1\""])
        let configuration = configuration()
        _ = await download(url, configuration)
        let second = await download(url, configuration)
        #expect(second?.image?.width == 12)
        #expect(statuses.values == [200, 200])
    }

    @Test func aZeroDiskCapacityTurnsTheDiskCacheOff() async throws {
        let server = try await Self.server()
        let (url, statuses) = serve(server, "off.png", headers: ["Cache-Control": "max-age=3600"])
        let configuration = configuration(diskCapacity: 0)
        _ = await download(url, configuration)
        _ = await download(url, configuration)
        #expect(statuses.values == [200, 200])
    }

    @Test func noURLCacheTurnsTheDiskCacheOff() async throws {
        let server = try await Self.server()
        let (url, statuses) = serve(server, "none.png", headers: ["Cache-Control": "max-age=3600"])
        let configuration = configuration()
        configuration.urlCache = nil
        _ = await download(url, configuration)
        _ = await download(url, configuration)
        #expect(statuses.values == [200, 200])
    }
}
