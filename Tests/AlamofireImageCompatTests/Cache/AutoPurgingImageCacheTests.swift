import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every test image is 100×100: it costs exactly 100 × 100 × 4 = 40 000 bytes.
@Suite("AutoPurgingImageCache", .timeLimit(.minutes(10)))
struct AutoPurgingImageCacheTests {
    let image = TestImages.image(width: 100, height: 100)
    let cost: UInt64 = 40_000

    @Test func hasAlamofireImageDefaults() {
        let cache = AutoPurgingImageCache()
        #expect(cache.memoryCapacity == 100_000_000 && cache.preferredMemoryUsageAfterPurge == 60_000_000)
        #expect(cache.memoryUsage == 0)
    }

    @Test func addsFetchesAndRemovesByIdentifier() {
        let cache = AutoPurgingImageCache()
        cache.addImage(image, withIdentifier: "avatar")
        #expect(cache.imageWithIdentifier("avatar") == image)
        #expect(cache.removeImageWithIdentifier("avatar"))
        #expect(cache.imageWithIdentifier("avatar") == nil)
        #expect(!cache.removeImageWithIdentifier("avatar"))
    }

    @Test func addsFetchesAndRemovesByRequestAndIdentifier() {
        let cache = AutoPurgingImageCache()
        let request = URLRequest(url: URL(string: "https://example.com/image.png")!)
        cache.addImage(image, forRequest: request, withAdditionalIdentifier: "CircleFilter")
        #expect(cache.imageWithIdentifier("https://example.com/image.png-CircleFilter") == image)
        #expect(cache.imageForRequest(request, withAdditionalIdentifier: nil) == nil)
        cache.addImage(image, forRequest: request, withAdditionalIdentifier: nil)
        #expect(cache.imageWithIdentifier("https://example.com/image.png") == image)
        #expect(cache.removeImageForRequest(request, withAdditionalIdentifier: "CircleFilter"))
        #expect(cache.imageForRequest(request, withAdditionalIdentifier: "CircleFilter") == nil)
        #expect(cache.imageForRequest(request, withAdditionalIdentifier: nil) != nil)
    }

    @Test func addingAnIdentifierAgainReplacesTheImage() {
        let cache = AutoPurgingImageCache()
        cache.addImage(image, withIdentifier: "same")
        let other = TestImages.image(width: 10, height: 10)
        cache.addImage(other, withIdentifier: "same")
        #expect(cache.imageWithIdentifier("same") == other)
        #expect(cache.memoryUsage == 400)
    }

    @Test func memoryUsageCountsWidthTimesHeightTimesFour() {
        let cache = AutoPurgingImageCache()
        cache.addImage(image, withIdentifier: "a")
        cache.addImage(image, withIdentifier: "b")
        #expect(cache.memoryUsage == 2 * cost)
        cache.removeImageWithIdentifier("a")
        #expect(cache.memoryUsage == cost)
        #expect(cache.removeAllImages())
        #expect(cache.memoryUsage == 0)
        #expect(!cache.removeAllImages())
    }

    @Test func purgesDownToThePreferredUsageWhenCapacityIsExceeded() {
        // Capacity 200 000 holds five images; the sixth (240 000) purges 120 000 bytes: three images.
        let cache = AutoPurgingImageCache(memoryCapacity: 200_000, preferredMemoryUsageAfterPurge: 120_000)
        for index in 0..<5 { cache.addImage(image, withIdentifier: "\(index)") }
        #expect(cache.memoryUsage == 5 * cost)
        cache.addImage(image, withIdentifier: "5")
        #expect(cache.memoryUsage == 3 * cost)
        #expect((0..<3).allSatisfy { cache.imageWithIdentifier("\($0)") == nil })
        #expect((3..<6).allSatisfy { cache.imageWithIdentifier("\($0)") != nil })
    }

    @Test func readingAnImageProtectsItFromTheNextPurge() {
        let cache = AutoPurgingImageCache(memoryCapacity: 120_000, preferredMemoryUsageAfterPurge: 80_000)
        for index in 0..<3 { cache.addImage(image, withIdentifier: "\(index)") }
        #expect(cache.imageWithIdentifier("0") != nil)  // 0 is now the most recently accessed
        cache.addImage(image, withIdentifier: "3")  // 160 000 > 120 000: purge 80 000 bytes
        #expect(cache.memoryUsage == 2 * cost)
        #expect(cache.imageWithIdentifier("1") == nil && cache.imageWithIdentifier("2") == nil)
        #expect(cache.imageWithIdentifier("0") != nil && cache.imageWithIdentifier("3") != nil)
    }
}
