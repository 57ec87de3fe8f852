import CometTestSupport
import FlyingFox
import Foundation
import Imaging
import NukeCompat
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The disk cache a Nuke 4 app had from `URLCache`, on Comet's `DataCache`: a second loader (as
/// after a relaunch) does not touch the origin for a fresh image, revalidates a stale one, never
/// stores `no-store`, and `diskCapacity = 0` turns it off, as the Nuke 4 tutorial does.
@Suite("DataLoader disk cache", .timeLimit(.minutes(10)))
struct DataLoaderDiskCacheTests {
    /// A configuration whose URL cache lives in a new temporary folder, `diskCapacity` bytes.
    private func configuration(diskCapacity: Int = 10 << 20) -> URLSessionConfiguration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-cache-\(UUID().uuidString)")
        let configuration = DataLoader.defaultConfiguration()
        configuration.urlCache = URLCache(memoryCapacity: 0, diskCapacity: diskCapacity, diskPath: folder.path)
        return configuration
    }

    /// Serves a PNG at `/nuke-cached/NAME` with `headers`, answering 304 to `If-None-Match: "v1"`;
    /// records the status of each answer.
    private func serve(_ server: TestServer, _ name: String, headers: [String: String]) -> (URL, Recorder<Int>) {
        let statuses = Recorder<Int>()
        let png = TestImages.png(width: 12, height: 10)
        server.handle("/nuke-cached/\(name)") { request in
            if request.headers[HTTPHeader("If-None-Match")] == "\"v1\"" {
                statuses.append(304)
                return HTTPResponse(statusCode: HTTPStatusCode(304, phrase: "Not Modified"))
            }
            statuses.append(200)
            var fields = HTTPHeaders()
            for (name, value) in headers { fields[HTTPHeader(name)] = value }
            return HTTPResponse(statusCode: .ok, headers: fields, body: png)
        }
        return (server.url("/nuke-cached/\(name)"), statuses)
    }

    /// Loads `url` with a new loader on `configuration`.
    private func load(_ url: URL, _ configuration: URLSessionConfiguration) async -> (Data, URLResponse)? {
        await resolution(of: DataLoader(configuration: configuration).loadData(with: URLRequest(url: url), token: nil))?
            .value
    }

    @Test func theDefaultConfigurationHas150MBOnDiskAndNoneInMemory() {
        let cache = DataLoader.defaultConfiguration().urlCache
        #expect(cache?.diskCapacity == 150 * 1024 * 1024)
        #expect(cache?.memoryCapacity == 0)
        let inWorkingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("com.github.kean.Nuke.Cache")
        #expect(!FileManager.default.fileExists(atPath: inWorkingDirectory.path))
    }

    @Test func aFreshImageComesFromDiskInASecondLoader() async throws {
        let server = try await SharedTestServer.common.server
        let (url, statuses) = serve(server, "fresh.png", headers: ["Cache-Control": "max-age=3600"])
        let configuration = configuration()
        _ = await load(url, configuration)
        let second = await load(url, configuration)
        #expect(second?.0 == TestImages.png(width: 12, height: 10))
        #expect((second?.1 as? HTTPURLResponse)?.statusCode == 200)
        #expect(statuses.all == [200])
    }

    @Test func aStaleImageIsRevalidatedWith304() async throws {
        let server = try await SharedTestServer.common.server
        let (url, statuses) = serve(server, "stale.png", headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let configuration = configuration()
        _ = await load(url, configuration)
        let second = await load(url, configuration)
        #expect(second?.0 == TestImages.png(width: 12, height: 10))
        #expect(statuses.all == [200, 304])
    }

    @Test func aNoStoreImageIsNeverStored() async throws {
        let server = try await SharedTestServer.common.server
        let (url, statuses) = serve(server, "private.png", headers: ["Cache-Control": "no-store", "ETag": "\"v1\""])
        let configuration = configuration()
        _ = await load(url, configuration)
        _ = await load(url, configuration)
        #expect(statuses.all == [200, 200])
    }

    @Test func aZeroDiskCapacityTurnsTheDiskCacheOff() async throws {
        let server = try await SharedTestServer.common.server
        let (url, statuses) = serve(server, "off.png", headers: ["Cache-Control": "max-age=3600"])
        let configuration = configuration(diskCapacity: 0)
        _ = await load(url, configuration)
        _ = await load(url, configuration)
        #expect(statuses.all == [200, 200])
    }

    @Test func aManagerInANewProcessStillFindsAFreshImage() async throws {
        let server = try await SharedTestServer.common.server
        let (url, statuses) = serve(server, "manager.png", headers: ["Cache-Control": "max-age=3600"])
        let configuration = configuration()
        for _ in 0..<2 {
            let loader = Loader(loader: DataLoader(configuration: configuration), decoder: DataDecoder(), cache: nil)
            let image = await resolution(of: loader.loadImage(with: Request(url: url), token: nil))?.value
            #expect(image?.width == 12)
        }
        #expect(statuses.all == [200])
    }
}
