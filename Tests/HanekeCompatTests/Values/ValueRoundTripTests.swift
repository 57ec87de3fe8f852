import CometTestSupport
import Foundation
import HanekeCompat
import Imaging
import Testing

/// JSON, String, Data and Image values survive the trip to disk and back.
@Suite(.timeLimit(.minutes(10)))
struct ValueRoundTripTests {
    init() { TestBase.prepare() }

    /// Sets `value` in a cache, waits for the disk write, and reads it back through a second
    /// instance (so the memory level cannot answer).
    private func roundTrip<T: DataConvertible & DataRepresentable>(_ value: T) async -> T? where T.Result == T {
        let name = TestBase.uniqueName()
        let writer = Cache<T>(name: name)
        let set = Outcome<T>()
        writer.set(value: value, key: "key", success: set.succeed)
        _ = await set.wait()
        _ = await eventually { writer.size > 0 }
        let outcome = Outcome<T>()
        Cache<T>(name: name).fetch(key: "key", failure: outcome.fail, success: outcome.succeed)
        _ = await outcome.wait()
        return outcome.value
    }

    @Test func dataRoundTrips() async {
        let bytes = Data((0..<256).map { UInt8($0) })
        #expect(await roundTrip(bytes) == bytes)
    }

    @Test func stringRoundTripsAsUTF8() async {
        #expect(await roundTrip("Haneke 刃物 🔪") == "Haneke 刃物 🔪")
        #expect("é".asData() == Data([0xC3, 0xA9]))
    }

    @Test func invalidUTF8IsNotAString() {
        #expect(String.convertFromData(Data([0xFF, 0xFE])) == nil)
    }

    @Test func aJSONObjectRoundTrips() async throws {
        let json = try #require(JSON.convertFromData(Data(#"{"name": "haneke", "stars": 5, "tags": ["cache"]}"#.utf8)))
        let back = try #require(await roundTrip(json))
        #expect(back.dictionary?["name"] as? String == "haneke")
        #expect((back.dictionary?["stars"] as? NSNumber)?.intValue == 5)
        #expect(back.dictionary?["tags"] as? [String] == ["cache"])
        #expect(back.array == nil)
    }

    @Test func aJSONArrayRoundTrips() async throws {
        let json = try #require(JSON.convertFromData(Data("[1, \"two\", null]".utf8)))
        let back = try #require(await roundTrip(json))
        #expect(back.array?.count == 3)
        #expect(back.array?[1] as? String == "two")
        #expect(back.dictionary == nil)
    }

    @Test func aTopLevelScalarOrInvalidTextIsNotJSON() {
        #expect(JSON.convertFromData(Data("42".utf8)) == nil)
        #expect(JSON.convertFromData(Data("{".utf8)) == nil)
    }

    @Test func anOpaqueImageIsStoredAsJPEG() throws {
        let data = try #require(TestImages.image(width: 8, height: 8, alpha: false).asData())
        #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test func anImageWithTransparencyIsStoredAsPNG() throws {
        let data = try #require(TestImages.image(width: 8, height: 8, alpha: true).asData())
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func anImageRoundTripsWithItsSize() async {
        let back = await roundTrip(TestImages.image(width: 12, height: 7, alpha: true))
        #expect(back?.width == 12)
        #expect(back?.height == 7)
    }

    @Test func webpGIFAndAVIFBytesAreImagesThroughCometsRegistry() throws {
        #expect(Image.convertFromData(TestImages.webp(width: 9, height: 5))?.width == 9)
        #expect(Image.convertFromData(TestImages.animatedGIF(width: 7, height: 3))?.width == 7)
        #expect(Image.convertFromData(TestImages.avif(width: 11, height: 6))?.width == 11)
    }

    @Test func anImageFormatWithAWebPEncoderStoresWebPOnDisk() async throws {
        let name = TestBase.uniqueName()
        let cache = Cache<Image>(name: name)
        cache.addFormat(Format<Image>(name: "webp", encoder: ImageEncoders.WebP(quality: 0.9)))
        let set = Outcome<Image>()
        cache.set(
            value: TestImages.image(width: 20, height: 10, alpha: true), key: "k", formatName: "webp",
            success: set.succeed)
        _ = await set.wait()
        #expect(await eventually { cache.size > 0 })
        let reader = Cache<Image>(name: name)
        reader.addFormat(Format<Image>(name: "webp", encoder: ImageEncoders.WebP(quality: 0.9)))
        let outcome = Outcome<Image>()
        reader.fetch(key: "k", formatName: "webp", failure: outcome.fail, success: outcome.succeed)
        _ = await outcome.wait()
        #expect(outcome.value?.width == 20 && outcome.value?.isOpaque == false)
    }

    @Test func bytesThatAreNoImageAreNotAnImage() {
        #expect(Image.convertFromData(Data("text".utf8)) == nil)
    }
}
