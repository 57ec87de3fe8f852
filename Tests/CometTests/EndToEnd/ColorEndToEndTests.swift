import CometTestSupport
import Foundation
import Testing

@testable import Comet

/// Colour through the real server, the decoders and both caches: converted to sRGB by default,
/// kept (with its profile) on request, and never one served for the other.
@Suite("Colour profiles through the real server", .timeLimit(.minutes(10)))
struct ColorEndToEndTests {
    /// A Display P3 JPEG (the generated photo's numbers, tagged P3).
    static let p3JPEG: Data = {
        let image = TestImages.image(width: 120, height: 80).withColorProfile(.displayP3)
        return try! ImageEncoders.jpeg(image, quality: 0.95)
    }()

    static func decode(_ data: Data, keepingColors: Bool = false) throws -> Image {
        try ImageDecoderRegistry.default.decode(
            data, options: ImageDecodingOptions(keepsOriginalColors: keepingColors)
        ).image
    }

    @Test func aProfiledImageArrivesInSRGB() async throws {
        let server = try await TestServer.start()
        server.serve(Self.p3JPEG, at: "p3.jpg")
        let (pipeline, _) = makeRealPipeline()
        let image = try await pipeline.image(for: server.imageURL("p3.jpg"))
        #expect(image.colorProfile == nil)
        #expect(image == (try Self.decode(Self.p3JPEG)))
        #expect(image != (try Self.decode(Self.p3JPEG, keepingColors: true)).withColorProfile(nil))
    }

    /// The pipeline's result for a fixture photo against Little CMS's conversion of the same file
    /// (and, with the original colours kept, against Pillow's decode of its numbers).
    @Test(.enabled(if: ColorFixtures.current.isAvailable || TestCorpus.current.isRequired))
    func aFixturePhotoMatchesLittleCMSThroughThePipeline() async throws {
        let fixtures = ColorFixtures.current
        let server = try await TestServer.start()
        server.serve(try fixtures.data("p3.jpg"), at: "fixture-p3.jpg")
        let (pipeline, _) = makeRealPipeline()
        let url = server.imageURL("fixture-p3.jpg")
        let converted = try await pipeline.image(for: url)
        #expect(try Self.largestDifference(converted, fixtures.pixels("p3.jpg.ref.ppm")) <= 2)
        let kept = try await pipeline.image(for: ImageRequest(url: url, options: [.keepOriginalColors]))
        #expect(try Self.largestDifference(kept, fixtures.pixels("p3.jpg.raw.ppm")) <= 1)
    }

    static func largestDifference(_ image: Image, _ expected: (width: Int, height: Int, rgba: [UInt8])) -> Int {
        guard image.width == expected.width, image.height == expected.height else { return .max }
        return zip(image.packedBytes, expected.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func keepOriginalColorsDeliversTheNumbersAndTheProfile() async throws {
        let server = try await TestServer.start()
        server.serve(Self.p3JPEG, at: "p3.jpg")
        let (pipeline, _) = makeRealPipeline()
        let request = ImageRequest(url: server.imageURL("p3.jpg"), options: [.keepOriginalColors])
        let image = try await pipeline.image(for: request)
        #expect(image.colorProfile?.name == "Display P3")
        #expect(image == (try Self.decode(Self.p3JPEG, keepingColors: true)))
    }

    @Test func theTwoColourModesAreCachedApart() async throws {
        let server = try await TestServer.start()
        server.serve(Self.p3JPEG, at: "p3.jpg")
        let (pipeline, _) = makeRealPipeline()
        let url = server.imageURL("p3.jpg")
        let converted = try await pipeline.image(for: url)
        let kept = try await pipeline.imageTask(with: ImageRequest(url: url, options: [.keepOriginalColors])).response
        #expect(kept.cacheType != .memory)
        #expect(kept.image.colorProfile != nil && converted.colorProfile == nil)
        #expect(pipeline.cache[ImageRequest(url: url)]?.image == converted)
        #expect(pipeline.cache[ImageRequest(url: url, options: [.keepOriginalColors])]?.image == kept.image)
    }

    @Test func aResizeKeepsTheProfileThroughTheEncodedDiskCache() async throws {
        let server = try await TestServer.start()
        server.serve(Self.p3JPEG, at: "p3.jpg")
        let (first, dataCache) = makeRealPipeline(diskCache: true) { $0.dataCachePolicy = .storeEncodedImages }
        let request = ImageRequest(
            url: server.imageURL("p3.jpg"), processors: [.resize(width: 60)], options: [.keepOriginalColors])
        let thumbnail = try await first.image(for: request)
        #expect(thumbnail.width == 60 && thumbnail.colorProfile?.name == "Display P3")
        let cache = try #require(dataCache)
        // The encoded thumbnail is written on a worker after the response.
        #expect(await eventually { cache.containsData(for: request.key.diskKey) })
        cache.flush()
        let (second, _) = makeRealPipeline {
            $0.dataCache = DataCache(path: cache.path)
            $0.dataCachePolicy = .storeEncodedImages
        }
        let response = try await second.imageTask(with: request).response
        #expect(response.cacheType == .disk)
        #expect(response.image.colorProfile?.iccData == ColorProfile.displayP3.iccData)
        #expect(server.requestCount(for: "/images/p3.jpg") == 1)
    }
}
