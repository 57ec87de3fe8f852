import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Caches through the real server", .timeLimit(.minutes(10)))
struct CachingEndToEndTests {
    @Test func memoryHitDoesNotTouchTheNetwork() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        let request = ImageRequest(url: server.imageURL("a.jpg"))
        _ = try await pipeline.image(for: request)
        let response = try await pipeline.imageTask(with: request).response
        #expect(response.cacheType == .memory)
        #expect(pipeline.cache[request] != nil)
        #expect(server.requestCount(for: "/images/a.jpg") == 1)
    }

    @Test func diskHitAfterANewPipelineInstance() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (first, dataCache) = makeRealPipeline(diskCache: true)
        let request = ImageRequest(url: server.imageURL("a.jpg"))
        _ = try await first.image(for: request)
        let cache = try #require(dataCache)
        cache.flush()
        let (second, _) = makeRealPipeline { $0.dataCache = DataCache(path: cache.path) }
        let response = try await second.imageTask(with: request).response
        #expect(response.cacheType == .disk)
        #expect(server.requestCount(for: "/images/a.jpg") == 1)
    }

    @Test func thumbnailRequestReusesTheOriginalDataOnDisk() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 400, height: 300), at: "photo.jpg")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        _ = try await pipeline.image(for: server.imageURL("photo.jpg"))
        dataCache?.flush()
        let (fresh, _) = makeRealPipeline { $0.dataCache = dataCache }
        let thumbnail = try await fresh.image(
            for: ImageRequest(url: server.imageURL("photo.jpg"), thumbnail: .init(maxPixelSize: 100)))
        #expect(thumbnail.width == 100 && thumbnail.height == 75)
        #expect(server.requestCount(for: "/images/photo.jpg") == 1)
    }

    /// What each policy writes for a request with a processor, and for one without.
    @Test(arguments: [
        (ImagePipeline.DataCachePolicy.storeOriginalData, true, false, true),
        (.storeEncodedImages, false, true, false),
        (.storeAll, true, true, true),
        (.automatic, false, true, true),
    ])
    func dataCachePolicyStoresWhatNukeWould(
        policy: ImagePipeline.DataCachePolicy, originalForProcessed: Bool,
        encodedForProcessed: Bool, originalForPlain: Bool
    ) async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 100, height: 80), at: "p.jpg")
        server.serve(TestImages.jpeg(width: 100, height: 80), at: "q.jpg")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.dataCachePolicy = policy }
        let cache = try #require(dataCache)
        let processed = ImageRequest(url: server.imageURL("p.jpg"), processors: [.resize(width: 50)])
        let plain = ImageRequest(url: server.imageURL("q.jpg"))
        _ = try await pipeline.image(for: processed)
        _ = try await pipeline.image(for: plain)
        #expect(await eventually { pipeline.activeJobCount == 0 })
        // Encoded writes are made on a worker after delivery: wait for the ones expected, and give
        // the others the same chance to (wrongly) appear.
        if encodedForProcessed {
            #expect(await eventually { cache.containsData(for: ImageKey(processed).diskKey) })
            if policy == .storeEncodedImages {
                #expect(await eventually { cache.containsData(for: ImageKey(plain).diskKey) })
            }
        } else {
            try await Task.sleep(for: .milliseconds(100))
        }
        cache.flush()
        #expect(cache.containsData(for: processed.imageID!) == originalForProcessed)
        #expect(cache.containsData(for: ImageKey(processed).diskKey) == encodedForProcessed)
        #expect(cache.containsData(for: plain.imageID!) == originalForPlain || policy == .storeEncodedImages)
        if policy == .storeEncodedImages {
            // The plain request's encoded image is stored under its own key (equal to the URL).
            #expect(cache.containsData(for: ImageKey(plain).diskKey))
        }
    }

    @Test func encodedProcessedImageIsServedFromDiskWithoutDownloading() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 100, height: 80), at: "p.jpg")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.dataCachePolicy = .storeEncodedImages }
        let request = ImageRequest(url: server.imageURL("p.jpg"), processors: [.resize(width: 50)])
        _ = try await pipeline.image(for: request)
        #expect(await eventually { pipeline.activeJobCount == 0 })
        try await Task.sleep(for: .milliseconds(50))
        dataCache?.flush()
        let (fresh, _) = makeRealPipeline {
            $0.dataCache = dataCache; $0.dataCachePolicy = .storeEncodedImages
        }
        let response = try await fresh.imageTask(with: request).response
        #expect(response.cacheType == .disk)
        #expect(response.image.width == 50)
        #expect(server.requestCount(for: "/images/p.jpg") == 1)
    }

    @Test func progressiveJPEGGivesPreviewsThenTheFinalImageAndOnlyTheOriginalIsCached() async throws {
        let server = try await TestServer.start()
        let data = TestImages.jpeg(width: 512, height: 384, progressive: true)
        server.serve(data, at: "progressive.jpg")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.isProgressiveDecodingEnabled = true }
        let task = pipeline.imageTask(
            with: ImageRequest(url: server.url("/drip/progressive.jpg?chunk=2048&interval=15")))
        var previews = 0
        var final: ImageResponse?
        for await event in task.events {
            switch event {
            case .preview(let response):
                #expect(response.isPreview && final == nil)
                previews += 1
            case .finished(let result):
                final = try result.get()
            case .progress:
                break
            }
        }
        #expect(previews >= 2, "\(previews) previews")
        #expect(final?.image.width == 512 && final?.isPreview == false)
        dataCache?.flush()
        #expect(dataCache?.cachedData(for: task.request.imageID!) == data)
        #expect(dataCache?.totalCount == 1)
    }
}
