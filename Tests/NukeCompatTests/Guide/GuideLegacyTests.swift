import Foundation
import Testing
import NukeCompat
import CometTestSupport

// The Nuke 4 blocks of Migration/Nuke4/README.md, verbatim, compiled against NukeCompat and
// run through the loopback server. GuideCodeBlocksTests checks that every block is here.

final class ImageView: Target {
    var image: Image?
    func handle(response: Response, isFromMemoryCache: Bool) {
        image = response.value
    }
}

/// The view of the guide's handler example.
final class PhotoView {
    var image: Image?
    var wasCached = false
}

/// The command-line tool's target in the guide: counts the thumbnails it receives.
final class ThumbnailWriter: Target {
    let written = Recorder<Int>()
    func handle(response: Response, isFromMemoryCache: Bool) {
        if let image = response.value { written.append(image.width) }
    }
}

// Compiled but never called by the suite: dispatchMain() never returns.
func runThumbnailTool(url: URL, writer: ThumbnailWriter) -> Never {
    Nuke.loadImage(with: url, into: writer)
    dispatchMain()  // drains the main queue, where NukeCompat calls back; never returns
}

struct CenterSquare: Processing {
    func process(_ image: Image) -> Image? {
        let side = min(image.width, image.height)
        guard side > 0 else { return nil }
        return image.cropped(x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
    }
}

// Main-actor tests: the legacy targets are plain classes written on the main queue, read here.
@Suite("Guide: Nuke 4 code compiled and run with NukeCompat", .timeLimit(.minutes(10)))
@MainActor
struct GuideLegacyTests {
    @Test func loadImageIntoACustomTarget() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "photo.jpg")
        let url = server.imageURL("photo.jpg")

        let imageView = ImageView()
        var request = Request(url: url)
        request.process(with: Decompressor(targetSize: CGSize(width: 32, height: 32), contentMode: .aspectFill))
        Nuke.loadImage(with: request, into: imageView)

        #expect(await eventually { imageView.image != nil })
        #expect(imageView.image?.height == 32)
        #expect((42...43).contains(imageView.image?.width ?? 0))
    }

    @Test func loadImageWithAHandlerThenFromTheMemoryCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 20, height: 10), at: "photo.png")
        let url = server.imageURL("photo.png")
        let view = PhotoView()

        Nuke.loadImage(with: url, into: view) { [weak view] response, isFromMemoryCache in
            view?.image = response.value
            view?.wasCached = isFromMemoryCache
        }

        #expect(await eventually { view.image != nil })
        #expect(view.image?.width == 20 && view.wasCached == false)
        view.image = nil
        Nuke.loadImage(with: url, into: view) { [weak view] response, isFromMemoryCache in
            view?.image = response.value
            view?.wasCached = isFromMemoryCache
        }
        #expect(view.image?.width == 20 && view.wasCached, "a memory hit is handed over synchronously")
    }

    @Test func cancelRequestForAView() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "photo.png")
        let view = PhotoView()
        Nuke.loadImage(with: server.url("/slow/300/photo.png"), into: view) { [weak view] response, _ in
            view?.image = response.value
        }

        Nuke.cancelRequest(for: view)

        await pause(milliseconds: 700)
        #expect(view.image == nil)
    }

    @Test func loaderPromiseWithACancellationToken() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "kitten.png")
        let port = server.port
        let log = Recorder<String>()

        let cts = CancellationTokenSource()
        Loader.shared.loadImage(with: URL(string: "http://127.0.0.1:\(port)/slow/1000/kitten.png")!, token: cts.token)
            .then { image in log.append("loaded \(image.width)×\(image.height)") }
            .catch { error in log.append("failed: \(error)") }
        cts.cancel()

        // Nuke 4's two outcomes: cancelled before its download started, the promise stays
        // pending and the request never reaches the server; cancelled once it started, it is
        // rejected with URLError.cancelled. A load queued after it, once done, shows that the
        // cancelled one had its turn.
        let later = Recorder<Int>()
        Loader.shared.loadImage(with: server.imageURL("kitten.png")).then { image in later.append(image.width) }
        #expect(await eventually { later.count == 1 })
        if server.requestCount(for: "/slow/1000/kitten.png") > 0 || log.count > 0 {
            #expect(await eventually { log.count == 1 })
            #expect(log.all.first?.contains("Code=-999") == true, "\(log.all)")
        }
        #expect(!log.all.contains { $0.hasPrefix("loaded") }, "a cancelled load never delivers an image")
    }

    @Test func loaderPromiseCancelledDuringTheDownloadIsRejectedWithURLErrorCancelled() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "kitten.png")
        let log = Recorder<Error>()
        let cts = CancellationTokenSource()
        Loader.shared.loadImage(with: server.url("/slow/10000/kitten.png"), token: cts.token)
            .catch { error in log.append(error) }
        #expect(await eventually { server.requestCount(for: "/slow/10000/kitten.png") == 1 })
        cts.cancel()
        #expect(await eventually { log.count == 1 })
        #expect((log.last as? URLError)?.code == .cancelled, "\(String(describing: log.last))")
    }

    @Test func loaderPromiseDeliversWithoutCancellation() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 9, height: 7), at: "kitten.png")
        let log = Recorder<String>()
        Loader.shared.loadImage(with: server.imageURL("kitten.png"))
            .then { image in log.append("loaded \(image.width)×\(image.height)") }
            .catch { error in log.append("failed: \(error)") }
        #expect(await eventually { log.count == 1 })
        #expect(log.all == ["loaded 9×7"])
    }

    @Test func customProcessorResultIsCached() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 30, height: 20), at: "wide.png")
        let url = server.imageURL("wide.png")

        let squared = Request(url: url).processed(with: CenterSquare())

        let image = await resolution(of: Loader.shared.loadImage(with: squared, token: nil))?.value
        #expect(image?.width == 20 && image?.height == 20)
        #expect(Cache.shared[squared]?.width == 20)
    }

    @Test func preheaterStartThenStop() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "near.png")
        server.serve(TestImages.png(), at: "far.png")
        let urls = [server.imageURL("near.png"), server.url("/slow/1500/far.png")]

        let preheater = Preheater()
        let requests = urls.map { Request(url: $0) }
        preheater.startPreheating(with: requests)

        #expect(await eventually { Cache.shared[requests[0]] != nil })
        #expect(await eventually { server.requestCount(for: "/slow/1500/far.png") == 1 })

        // later, when those images are no longer about to be shown:
        preheater.stopPreheating(with: requests)

        await pause(milliseconds: 2000)
        #expect(Cache.shared[requests[1]] == nil, "the stopped preheat never reached the cache")
    }

    @Test func sharedCacheByRequest() {
        let request = Request(url: URL(string: "http://127.0.0.1:1/guide-cache.png")!)
        let image = TestImages.image(width: 5, height: 5)

        Cache.shared[request] = image
        let cached = Cache.shared[request]
        Cache.shared.costLimit = 32 << 20

        #expect(cached == image)
        #expect(Cache.shared.costLimit == 32 << 20)
    }

    @Test func composedLoaderAndManager() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 11, height: 11), at: "own.png")
        let url = server.imageURL("own.png")
        let writer = ThumbnailWriter()

        let cache = Cache(costLimit: 64 << 20)
        let loader = Deduplicator(loader: Loader(loader: DataLoader(), decoder: DataDecoder(), cache: cache))
        let manager = Manager(loader: loader, cache: cache)

        manager.loadImage(with: url, into: writer)
        #expect(await eventually { writer.written.count == 1 })
        #expect(cache.totalCount == 1)
    }
}
