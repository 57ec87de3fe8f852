import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Prefetching", .timeLimit(.minutes(1)))
struct PrefetcherTests {
    func urls(_ count: Int) -> [URL] { (0..<count).map { URL(string: "https://example.com/\($0).jpg")! } }

    @Test func prefetchedImagesLandInTheMemoryCache() async throws {
        let loader = MockDataLoader()
        let pipeline = ImagePipeline.test(loader: loader)
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: urls(5))
        #expect(await eventually { prefetcher.pendingCount == 0 })
        for url in urls(5) { #expect(pipeline.cache[ImageRequest(url: url)] != nil) }
        #expect(loader.loadCount == 5)
    }

    @Test func cachedImagesAreSkipped() async throws {
        let loader = MockDataLoader()
        let pipeline = ImagePipeline.test(loader: loader)
        _ = try await pipeline.image(for: urls(1)[0])
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: urls(1))
        #expect(prefetcher.pendingCount == 0)
        #expect(loader.loadCount == 1)
    }

    @Test func prefetchesRunAtLowPriorityAndAtMostTwoAtOnce() async throws {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = ImagePipeline.test(loader: loader)
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: urls(6))
        #expect(await eventually { loader.loadCount == 2 })
        try await Task.sleep(for: .milliseconds(30))
        #expect(loader.loadCount == 2)
        #expect(prefetcher.pendingCount == 6)
        let priority = pipeline.context.queue.sync { pipeline.context.debugFetchJobPriority(for: urls(6)[0].absoluteString) }
        #expect(priority == .low)
        loader.resume()
        #expect(await eventually { prefetcher.pendingCount == 0 })
    }

    @Test func stoppingCancelsRunningPrefetches() async throws {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = ImagePipeline.test(loader: loader)
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: urls(4))
        #expect(await eventually { loader.loadCount == 2 })
        prefetcher.stopPrefetching(with: urls(4))
        #expect(prefetcher.pendingCount == 0)
        #expect(await eventually { loader.cancelCount == 2 })
    }

    @Test func releasingThePrefetcherStopsEverything() async throws {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = ImagePipeline.test(loader: loader)
        var prefetcher: ImagePrefetcher? = ImagePrefetcher(pipeline: pipeline)
        prefetcher?.startPrefetching(with: urls(2))
        #expect(await eventually { loader.loadCount == 2 })
        prefetcher = nil
        #expect(await eventually { loader.cancelCount == 2 })
    }

    @Test func diskDestinationStoresOriginalDataWithoutDecodingIntoMemory() async throws {
        let loader = MockDataLoader()
        let dataCache = temporaryDataCache()
        let pipeline = ImagePipeline.test(loader: loader) { $0.dataCache = dataCache }
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache)
        prefetcher.startPrefetching(with: urls(3))
        #expect(await eventually { prefetcher.pendingCount == 0 })
        for url in urls(3) {
            #expect(dataCache.containsData(for: url.absoluteString))
            #expect(pipeline.cache[ImageRequest(url: url)] == nil)
        }
    }
}
