import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// `pipeline.cache` reads and writes as a load of the same request would: its cache options
/// apply, as in Nuke.
@Suite("pipeline.cache honours the request's cache options", .timeLimit(.minutes(10)))
struct CacheRequestOptionsTests {
    let url = URL(string: "https://example.com/options.jpg")!
    let image = CachedImage(image: TestImages.image(width: 4, height: 3))

    private func makePipeline() -> ImagePipeline {
        let dataCache = temporaryDataCache()
        return ImagePipeline.test(loader: MockDataLoader()) {
            $0.dataCache = dataCache
            $0.imageCache = ImageCache()
        }
    }

    @Test func aRequestThatMayNotReadTheMemoryCacheFindsNoImage() {
        let pipeline = makePipeline()
        pipeline.cache[ImageRequest(url: url)] = image
        #expect(pipeline.cache[ImageRequest(url: url, options: .disableMemoryCacheReads)] == nil)
        #expect(pipeline.cache[ImageRequest(url: url)] != nil)
    }

    @Test func aRequestThatMayNotWriteTheMemoryCacheStoresNoImage() {
        let pipeline = makePipeline()
        pipeline.cache[ImageRequest(url: url, options: .disableMemoryCacheWrites)] = image
        #expect(pipeline.cache[ImageRequest(url: url)] == nil)
    }

    @Test func settingNilRemovesTheImageWhateverTheOptions() {
        let pipeline = makePipeline()
        pipeline.cache[ImageRequest(url: url)] = image
        pipeline.cache[ImageRequest(url: url, options: .disableMemoryCache)] = nil
        #expect(pipeline.cache[ImageRequest(url: url)] == nil)
    }

    @Test func aRequestThatMayNotReadTheDiskCacheFindsNoData() {
        let pipeline = makePipeline()
        pipeline.cache.storeCachedData(Data([1, 2, 3]), for: ImageRequest(url: url))
        #expect(pipeline.cache.cachedData(for: ImageRequest(url: url, options: .disableDiskCacheReads)) == nil)
        #expect(pipeline.cache.cachedData(for: ImageRequest(url: url)) == Data([1, 2, 3]))
    }

    @Test func aRequestThatMayNotWriteTheDiskCacheStoresNoData() {
        let pipeline = makePipeline()
        pipeline.cache.storeCachedData(Data([1, 2, 3]), for: ImageRequest(url: url, options: .disableDiskCacheWrites))
        #expect(pipeline.cache.cachedData(for: ImageRequest(url: url)) == nil)
    }
}
