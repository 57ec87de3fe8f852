import Foundation
import Testing
import Comet
import CometTestSupport

// The idiomatic Comet blocks of Migration/Nuke4/README.md, verbatim, run through the loopback
// server. GuideCodeBlocksTests checks that every block is here.

final class ImageSlot: ImageDisplaying {
    private let lock = NSLock()  // display runs on the pipeline's callback queue
    private var shown: Image?
    var image: Image? { lock.withLock { shown } }
    func display(_ image: Image?, isPreview: Bool) { lock.withLock { shown = image } }
}

struct CenterSquareCrop: ImageProcessing, Hashable {
    var identifier: String { "com.example.center-square" }
    func process(_ image: Image) throws -> Image {
        let side = min(image.width, image.height)
        return image.cropped(x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
    }
}

@Suite("Guide: the idiomatic Comet code", .timeLimit(.minutes(10)))
struct GuideCometTests {
    @Test func loadIntoADisplayingTargetThenAwait() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "photo.jpg")
        let url = server.imageURL("photo.jpg")

        let slot = ImageSlot()
        let request = ImageRequest(
            url: url, processors: [.resize(size: CGSize(width: 32, height: 32), contentMode: .aspectFill)])
        ImagePipeline.shared.loadImage(with: request, into: slot)

        #expect(await eventually { slot.image != nil })
        #expect(slot.image?.height == 32)

        let thumbnail = try await ImagePipeline.shared.image(for: request)

        #expect(thumbnail.height == 32)
    }

    @Test func cancelATargetLoad() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "photo.png")
        let slot = ImageSlot()
        ImagePipeline.shared.loadImage(with: server.url("/slow/300/photo.png"), into: slot)

        ImagePipeline.shared.cancelRequest(for: slot)

        await pause(milliseconds: 700)
        #expect(slot.image == nil)
    }

    @Test func cancelAnAsyncLoad() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "kitten.png")
        let url = server.url("/slow/1000/kitten.png")
        let log = Recorder<String>()

        let task = Task { try await ImagePipeline.shared.image(for: url) }
        task.cancel()
        do {
            _ = try await task.value
        } catch {
            log.append("cancelled: \(error)")
        }

        #expect(log.count == 1)
    }

    @Test func streamTheImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 9, height: 7), at: "kitten.png")
        let url = server.imageURL("kitten.png")
        let log = Recorder<String>()

        let subscription = ImagePipeline.shared.imageStream(with: url)
            .map { $0.image }
            .sink(
                receiveCompletion: { _ in },
                receiveValue: { image in log.append("loaded \(image.width)×\(image.height)") })

        #expect(await eventually { log.count == 1 })
        #expect(log.all == ["loaded 9×7"])
        subscription.cancel()
    }

    @Test func processorsInTheRequest() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 128, height: 128), at: "face.png")
        let url = server.imageURL("face.png")

        let resized = ImageRequest(url: url, processors: [.resize(width: 64), .circle()])

        let image = try await ImagePipeline.shared.image(for: resized)
        #expect(image.width == 64)
        let squared = try await ImagePipeline.shared.image(
            for: ImageRequest(url: server.imageURL("face.png"), processors: [CenterSquareCrop(), .resize(width: 16)]))
        #expect(squared.width == 16 && squared.height == 16)
    }

    @Test func prefetchIntoTheMemoryCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "next.png")
        let urls = [server.imageURL("next.png")]
        // A pipeline and memory cache of its own: on `.shared`, low-priority prefetches queue
        // behind every other suite's loads, and `ImageCache.shared` is emptied by other suites.
        let pipeline = ImagePipeline { $0.imageCache = ImageCache() }

        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .memoryCache)
        prefetcher.startPrefetching(with: urls)
        #expect(await eventually { pipeline.cache[ImageRequest(url: urls[0])] != nil })
        prefetcher.stopPrefetching(with: urls)

        #expect(prefetcher.pendingCount == 0)
    }

    @Test func pipelineCacheByRequest() {
        let imageRequest = ImageRequest(url: URL(string: "http://127.0.0.1:1/guide-comet-cache.png")!)
        let image = TestImages.image(width: 6, height: 6)

        ImagePipeline.shared.cache[imageRequest] = CachedImage(image: image)
        let cachedImage = ImagePipeline.shared.cache[imageRequest]?.image

        #expect(cachedImage == image)
    }

    @Test func oneConfiguredPipeline() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 8, height: 8), at: "own.png")

        let pipeline = ImagePipeline {
            $0.imageCache = ImageCache(costLimit: 64 << 20)
            $0.dataCache = try? DataCache(name: "com.example.nuke-migration")
        }

        let image = try await pipeline.image(for: server.imageURL("own.png"))
        #expect(image.width == 8)
        pipeline.cache.removeAll()
    }
}
