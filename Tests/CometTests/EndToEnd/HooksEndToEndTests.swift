import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// Every ``ImagePipeline/Hooks`` closure, through the real loopback server and codecs.
@Suite("Pipeline hooks end to end", .timeLimit(.minutes(10)))
struct HooksEndToEndTests {
    private static let tier: ImageRequest.UserInfoKey = "tier"

    private func serverWithImage(_ name: String = "a.png") async throws -> TestServer {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 20, height: 10), at: name)
        return server
    }

    @Test func theDataLoaderHookChoosesALoaderPerRequestFromItsUserInfo() async throws {
        let server = try await TestServer.start()
        let headers = Locked<[String?]>([])
        let image = TestImages.png(width: 6, height: 6)
        server.handle("/who") { request in
            headers.withLock { $0.append(request.headers[HTTPHeader("X-Loader")]) }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png"], body: image)
        }
        var special = DataLoader.Configuration()
        special.additionalHeaders = ["X-Loader": "special"]
        let specialLoader = DataLoader(configuration: special)
        let (pipeline, _) = makeRealPipeline {
            $0.hooks.dataLoader = { request in
                request.userInfo[Self.tier] as? String == "special" ? specialLoader : DataLoader()
            }
            $0.imageCache = nil
        }
        _ = try await pipeline.image(for: ImageRequest(url: server.url("/who"), userInfo: [Self.tier: "special"]))
        _ = try await pipeline.image(for: ImageRequest(url: server.url("/who")))
        #expect(headers.withLock { $0 } == ["special", nil])
    }

    @Test func theDataCacheHookChoosesACachePerRequest() async throws {
        let server = try await serverWithImage()
        let standard = temporaryDataCache()
        let premium = temporaryDataCache()
        let (pipeline, _) = makeRealPipeline {
            $0.dataCache = standard
            $0.hooks.dataCache = { request in request.userInfo[Self.tier] as? String == "premium" ? premium : standard }
        }
        _ = try await pipeline.image(for: ImageRequest(url: server.imageURL("a.png"), userInfo: [Self.tier: "premium"]))
        premium.flush()
        standard.flush()
        #expect(premium.totalCount == 1)
        #expect(standard.totalCount == 0)
    }

    @Test func theCacheKeyHookNamesTheDiskEntryAndIsReadBack() async throws {
        let server = try await serverWithImage()
        let dataCache = temporaryDataCache()
        let configure: (inout ImagePipeline.Configuration) -> Void = {
            $0.dataCache = dataCache
            $0.hooks.cacheKey = { request in request.url.map { "custom:" + $0.lastPathComponent } }
        }
        let (first, _) = makeRealPipeline(configure)
        _ = try await first.image(for: server.imageURL("a.png"))
        dataCache.flush()
        #expect(dataCache.containsData(for: "custom:a.png"))
        #expect(!dataCache.containsData(for: server.imageURL("a.png").absoluteString))
        let (second, _) = makeRealPipeline(configure)  // an empty memory cache of its own
        _ = try await second.image(for: server.imageURL("a.png"))
        #expect(server.requestCount(for: "/images/a.png") == 1)
        #expect(second.metrics.diskCacheHits == 1)
    }

    @Test func vetoesInWillCacheLeaveBothCachesEmpty() async throws {
        let server = try await serverWithImage()
        let imageCache = ImageCache()
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) {
            $0.imageCache = imageCache
            $0.hooks.willCacheImage = { _, _ in nil }
            $0.hooks.willCacheData = { _, _ in nil }
        }
        let request = ImageRequest(url: server.imageURL("a.png"))
        #expect(try await pipeline.image(for: request).width == 20)
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
        #expect(imageCache.totalCount == 0)
        #expect(pipeline.cache[request] == nil)
    }

    @Test func willCacheImageMayStoreAnotherImage() async throws {
        let server = try await serverWithImage()
        let small = TestImages.image(width: 2, height: 1)
        let (pipeline, _) = makeRealPipeline { $0.hooks.willCacheImage = { _, _ in small } }
        let request = ImageRequest(url: server.imageURL("a.png"))
        #expect(try await pipeline.image(for: request).width == 20)  // the caller gets the decoded image
        #expect(pipeline.cache[request]?.image.width == 2)
    }

    @Test func willCacheDataMayRewriteTheStoredBytes() async throws {
        let server = try await serverWithImage()
        let replacement = TestImages.png(width: 3, height: 3)
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) {
            $0.hooks.willCacheData = { _, _ in replacement }
        }
        let request = ImageRequest(url: server.imageURL("a.png"))
        _ = try await pipeline.image(for: request)
        dataCache?.flush()
        #expect(pipeline.cache.cachedData(for: request) == replacement)
    }
}
