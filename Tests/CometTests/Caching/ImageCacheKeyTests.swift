import Testing
@testable import Comet

extension Caching {
    @Suite("ImageCacheKey")
    struct ImageCacheKeyTests {
        struct Composite: Hashable, Sendable {
            var url: String
            var processors: [String]
        }

        @Test func stringKeysMadeEitherWayAreEqual() {
            let a = ImageCacheKey("https://example.com/a.jpg")
            let b = ImageCacheKey("https://example.com/a.jpg" as any Hashable & Sendable as! String)
            let c: ImageCacheKey = "https://example.com/a.jpg"
            #expect(a == b)
            #expect(a == c)
            #expect(a.hashValue == b.hashValue)
            #expect(a != ImageCacheKey("https://example.com/b.jpg"))
        }

        @Test func genericStringValueIsAStringKey() {
            func make<T: Hashable & Sendable>(_ value: T) -> ImageCacheKey { ImageCacheKey(value) }
            #expect(make("x") == ImageCacheKey("x"))
            #expect(make("x").hashValue == ImageCacheKey("x").hashValue)
        }

        @Test func compositeValuesCompareByValue() {
            let a = ImageCacheKey(Composite(url: "u", processors: ["resize"]))
            let b = ImageCacheKey(Composite(url: "u", processors: ["resize"]))
            let c = ImageCacheKey(Composite(url: "u", processors: ["resize", "blur"]))
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
            #expect(a != c)
        }

        @Test func valuesOfDifferentTypesAreDifferentKeys() {
            #expect(ImageCacheKey(1) != ImageCacheKey(Int64(1)))
            #expect(ImageCacheKey(1) != ImageCacheKey("1"))
        }

        @Test func wrappingAKeyReturnsTheSameKey() {
            let key = ImageCacheKey(Composite(url: "u", processors: []))
            #expect(ImageCacheKey(key) == key)
            #expect(ImageCacheKey(key).base is Composite)
        }

        @Test func compositeKeysWorkInTheCache() {
            let cache = ImageCache(costLimit: 10_000)
            cache[ImageCacheKey(Composite(url: "u", processors: ["resize"]))] = entry(costing: 40)
            #expect(cache[ImageCacheKey(Composite(url: "u", processors: ["resize"]))] != nil)
            #expect(cache[ImageCacheKey(Composite(url: "u", processors: []))] == nil)
        }
    }
}
