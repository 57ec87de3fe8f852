import Foundation
import Streams
import Testing
@testable import Comet
import CometTestSupport

/// WebP, GIF and AVIF through the real server, the registry's decoders and both caches.
@Suite("WebP, GIF and AVIF through the real server", .timeLimit(.minutes(10)))
struct FormatsEndToEndTests {
    @Test(arguments: [
        ("a.webp", TestImages.webp()), ("a.gif", TestImages.animatedGIF(width: 64, height: 48)),
        ("a.avif", TestImages.avif()),
    ])
    func loadsEachFormat(_ name: String, _ data: Data) async throws {
        let server = try await TestServer.start()
        server.serve(data, at: name)
        let (pipeline, _) = makeRealPipeline()
        let image = try await pipeline.image(for: server.imageURL(name))
        #expect(image.width == 64 && image.height == 48)
    }

    @Test func concurrentRequestsForOneWebPShareOneDownloadAndDecode() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.webp(width: 300, height: 200), at: "c.webp")
        let (pipeline, _) = makeRealPipeline()
        let url = server.imageURL("c.webp")
        try await withThrowingTaskGroup(of: Image.self) { group in
            for _ in 0..<8 { group.addTask { try await pipeline.image(for: url) } }
            for try await image in group { #expect(image.width == 300) }
        }
        #expect(server.requestCount(for: "/images/c.webp") == 1)
        #expect(pipeline.metrics.decodes == 1)
    }

    @Test func avifComesFromTheDiskCacheInANewPipeline() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.avif(width: 80, height: 60), at: "d.avif")
        let (first, dataCache) = makeRealPipeline(diskCache: true)
        let request = ImageRequest(url: server.imageURL("d.avif"))
        let original = try await first.image(for: request)
        let cache = try #require(dataCache)
        cache.flush()
        let (second, _) = makeRealPipeline { $0.dataCache = DataCache(path: cache.path) }
        let response = try await second.imageTask(with: request).response
        #expect(response.cacheType == .disk && response.image == original)
        #expect(server.requestCount(for: "/images/d.avif") == 1)
    }

    /// A WebP thumbnail decodes small (libwebp's scaler) and gives the exact thumbnail size.
    @Test func webpThumbnailUsesTheScaledDecode() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.webp(width: 1200, height: 800), at: "big.webp")
        let (pipeline, _) = makeRealPipeline()
        let thumb = try await pipeline.image(
            for: ImageRequest(url: server.imageURL("big.webp"), thumbnail: .init(maxPixelSize: 150)))
        #expect(thumb.width == 150 && thumb.height == 100)
        // What the decoder itself gives for the same target: already the thumbnail's size.
        let decoded = try WebPDecoder().decode(
            TestImages.webp(width: 1200, height: 800),
            options: ImageDecodingOptions(downsampling: .maxPixelSize(150)))
        #expect(decoded.image.width == 150 && decoded.image.height == 100)
    }

    @Test func webpThumbnailIsStoredEncodedAsWebPWithAWebPEncoder() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.webp(width: 400, height: 300), at: "t.webp")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) {
            $0.dataCachePolicy = .storeEncodedImages
            $0.makeImageEncoder = { _ in ImageEncoders.WebP(quality: 0.8) }
        }
        let request = ImageRequest(url: server.imageURL("t.webp"), thumbnail: .init(maxPixelSize: 100))
        _ = try await pipeline.image(for: request)
        let cache = try #require(dataCache)
        #expect(await eventually { cache.containsData(for: ImageKey(request).diskKey) })
        cache.flush()
        let stored = try #require(cache.cachedData(for: ImageKey(request).diskKey))
        #expect(AssetType(stored) == .webp)
        let (fresh, _) = makeRealPipeline {
            $0.dataCache = cache; $0.dataCachePolicy = .storeEncodedImages
        }
        let response = try await fresh.imageTask(with: request).response
        #expect(response.cacheType == .disk && response.image.width == 100)
    }

    @Test func streamAppendsAnAVIFFullImageAfterAWebPThumbnail() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.webp(width: 32, height: 24), at: "thumb.webp")
        server.serve(TestImages.avif(width: 320, height: 240), at: "full.avif")
        let (pipeline, _) = makeRealPipeline()
        let thumb = pipeline.imageStream(with: ImageRequest(url: server.imageURL("thumb.webp")))
        let full = pipeline.imageStream(with: ImageRequest(url: server.imageURL("full.avif")))
        let sizes = Collected<Int>()
        let cancellable = thumb.append(full).sink(
            receiveCompletion: { _ in }, receiveValue: { sizes.append($0.image.width) })
        #expect(await eventually { sizes.count == 2 })
        #expect(sizes.all == [32, 320])
        cancellable.cancel()
    }

    @Test func corruptWebPFailsAndNothingIsCached() async throws {
        let server = try await TestServer.start()
        let data = TestImages.webp(width: 200, height: 100)
        server.serve(data.prefix(data.count / 2), at: "cut.webp")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        let request = ImageRequest(url: server.imageURL("cut.webp"))
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: request) }
        let cache = try #require(dataCache)
        cache.flush()
        #expect(!cache.containsData(for: request.imageID!))
        #expect(pipeline.cache[request] == nil)
    }
}
