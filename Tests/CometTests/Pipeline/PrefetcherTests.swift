import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Prefetching", .timeLimit(.minutes(10)))
struct PrefetcherTests {
    let loader = MockDataLoader()
    let pipeline: ImagePipeline

    init() { pipeline = .test(loader: loader) }

    func urls(_ count: Int) -> [URL] { (0..<count).map { URL(string: "https://example.com/\($0).jpg")! } }

    @Test func prefetchedImagesLandInTheMemoryCache() async throws {
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: urls(5))
        #expect(await eventually { prefetcher.pendingCount == 0 })
        for url in urls(5) { #expect(pipeline.cache[ImageRequest(url: url)] != nil) }
        #expect(loader.loadCount == 5)
    }

    @Test func cachedImagesAreSkipped() async throws {
        _ = try await pipeline.image(for: urls(1)[0])
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        prefetcher.startPrefetching(with: urls(1))
        #expect(prefetcher.pendingCount == 0)
        #expect(loader.loadCount == 1)
    }

    @Test func prefetchesRunAtLowPriorityAndAtMostTwoAtOnce() async throws {
        let prefetcher = await loader.holdingLoads(2) {
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            prefetcher.startPrefetching(with: urls(6))
            return prefetcher
        }
        try await Task.sleep(for: .milliseconds(30))
        #expect(loader.loadCount == 2)
        #expect(prefetcher.pendingCount == 6)
        let priority = pipeline.context.executor.sync { graph in
            pipeline.context.fetchJobPriority(for: urls(6)[0].absoluteString, graph)
        }
        #expect(priority == .low)
        loader.resume()
        #expect(await eventually { prefetcher.pendingCount == 0 })
    }

    @Test func stoppingCancelsRunningPrefetches() async throws {
        let prefetcher = await loader.holdingLoads(2) {
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            prefetcher.startPrefetching(with: urls(4))
            return prefetcher
        }
        prefetcher.stopPrefetching(with: urls(4))
        #expect(prefetcher.pendingCount == 0)
        #expect(await loader.waitForCancellations(2))
    }

    @Test func releasingThePrefetcherStopsEverything() async throws {
        var prefetcher: ImagePrefetcher? = ImagePrefetcher(pipeline: pipeline)
        await loader.holdingLoads(2) { prefetcher?.startPrefetching(with: urls(2)) }
        prefetcher = nil
        #expect(await loader.waitForCancellations(2))
    }

    @Test func diskDestinationStoresOriginalDataWithoutDecodingIntoMemory() async throws {
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
