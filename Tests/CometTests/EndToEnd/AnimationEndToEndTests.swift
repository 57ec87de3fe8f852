import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// `.decodeAnimation` through the real server: every frame in the response, cached apart from
/// the still image of the same URL.
@Suite("Animations through the real server", .timeLimit(.minutes(10)))
struct AnimationEndToEndTests {
    @Test func anAnimationRequestGetsEveryFrame() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.animatedGIF(frames: 4), at: "a.gif")
        let (pipeline, _) = makeRealPipeline()
        let response = try await pipeline.imageTask(
            with: ImageRequest(url: server.imageURL("a.gif"), options: [.decodeAnimation])
        ).response
        let animation = try #require(response.animation)
        #expect(animation.frames.count == 4 && animation.type == .gif && animation.loopCount == 0)
        #expect(response.image == animation.frames[0].image)
    }

    @Test func aPlainRequestGetsTheFirstFrameOnly() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.animatedGIF(frames: 4), at: "a.gif")
        let (pipeline, _) = makeRealPipeline()
        let response = try await pipeline.imageTask(with: ImageRequest(url: server.imageURL("a.gif"))).response
        #expect(response.animation == nil)
        #expect(response.image.pixel(x: 0, y: 0) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test func theMemoryCacheKeepsTheAnimationApartFromTheStillImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.animatedGIF(frames: 3), at: "a.gif")
        let (pipeline, _) = makeRealPipeline()
        let still = ImageRequest(url: server.imageURL("a.gif"))
        let animated = ImageRequest(url: server.imageURL("a.gif"), options: [.decodeAnimation])
        _ = try await pipeline.image(for: still)
        let first = try await pipeline.imageTask(with: animated).response
        #expect(first.cacheType == nil && first.animation?.frames.count == 3)
        let second = try await pipeline.imageTask(with: animated).response
        #expect(second.cacheType == .memory && second.animation?.frames.count == 3)
        #expect(pipeline.cache[animated]?.animation?.frames.count == 3)
        #expect(pipeline.cache[still]?.animation == nil)
    }

    @Test func theAnimationComesBackFromTheDiskCacheWithItsFrames() async throws {
        let server = try await TestServer.start()
        let frames = (0..<3).map {
            AnimatedImage.Frame(image: TestImages.image(width: 20 + $0, height: 10), duration: 0.05)
        }
        let resized = frames.map {
            AnimatedImage.Frame(
                image: try! ImageProcessors.Resize(size: Size(width: 20, height: 10), contentMode: .stretch).process(
                    $0.image), duration: $0.duration)
        }
        let webp = try ImageEncoders.animatedWebP(
            AnimatedImage(type: .webp, frames: resized, loopCount: 0, data: Data()), lossless: true)
        server.serve(webp, at: "a.webp")
        let (first, dataCache) = makeRealPipeline(diskCache: true)
        let request = ImageRequest(url: server.imageURL("a.webp"), options: [.decodeAnimation])
        _ = try await first.image(for: request)
        let cache = try #require(dataCache)
        cache.flush()
        let (second, _) = makeRealPipeline { $0.dataCache = DataCache(path: cache.path) }
        let response = try await second.imageTask(with: request).response
        #expect(response.cacheType == .disk && response.animation?.frames.count == 3)
        #expect(server.requestCount(for: "/images/a.webp") == 1)
    }

    @Test func aThumbnailOfAnAnimationIsAStillImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.animatedGIF(width: 40, height: 20, frames: 3), at: "a.gif")
        let (pipeline, _) = makeRealPipeline()
        let request = ImageRequest(
            url: server.imageURL("a.gif"), options: [.decodeAnimation], thumbnail: .init(maxPixelSize: 10))
        let response = try await pipeline.imageTask(with: request).response
        #expect(response.animation == nil && response.image.width == 10)
    }
}
