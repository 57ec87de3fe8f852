import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// A request makes its cache key once and keeps it until it is mutated: lookups must always use
/// the key of the request's current values.
@Suite("Request cache keys", .timeLimit(.minutes(10)))
struct RequestKeyTests {
    let url = URL(string: "https://example.com/key.jpg")!
    let image = Image(width: 2, height: 2, color: .white)

    @Test func aRequestMutatedAfterALookupIsLookedUpUnderItsNewValues() {
        let pipeline = ImagePipeline.test(loader: MockDataLoader())
        var request = ImageRequest(url: url)
        pipeline.cache[request] = CachedImage(image: image)
        #expect(pipeline.cache[request] != nil)
        request.processors = [.resize(width: 1)]
        #expect(pipeline.cache[request] == nil)
        request.processors = []
        #expect(pipeline.cache[request] != nil)
        request.imageID = "another"
        #expect(pipeline.cache[request] == nil)
    }

    @Test func aCopyMutatedAfterTheKeyWasMadeDoesNotChangeTheOriginalsKey() {
        let pipeline = ImagePipeline.test(loader: MockDataLoader())
        let original = ImageRequest(url: url, processors: [.resize(width: 1)])
        pipeline.cache[original] = CachedImage(image: image)
        var copy = original
        copy.thumbnail = .init(maxPixelSize: 8)
        #expect(pipeline.cache[original] != nil)
        #expect(pipeline.cache[copy] == nil)
        #expect(copy.key != original.key)
    }

    @Test func priorityAndUserInfoAreNotPartOfTheKey() {
        let pipeline = ImagePipeline.test(loader: MockDataLoader())
        var request = ImageRequest(url: url)
        pipeline.cache[request] = CachedImage(image: image)
        request.priority = .veryHigh
        request.userInfo = ["note": "x"]
        #expect(pipeline.cache[request] != nil)
    }

    @Test func theKeyMadeOnManyThreadsAtOnceIsOneKey() async {
        let request = ImageRequest(url: url, processors: [.resize(width: 4)])
        let keys = await withTaskGroup(of: ImageCacheKey.self) { group in
            for _ in 0..<64 { group.addTask { request.memoryCacheKey } }
            return await group.reduce(into: [ImageCacheKey]()) { $0.append($1) }
        }
        #expect(keys.count == 64)
        #expect(Set(keys).count == 1)
        #expect(keys.first == ImageKey(request).memoryKey)
    }
}
