import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// `orEmpty` per branch and `imageStream(thumbnail:full:)`.
@Suite("Thumbnail, then full image: helpers", .timeLimit(.minutes(10)))
struct ThumbnailConvenienceTests {
    typealias Recorder = StreamRecorder<ImageResponse, ImagePipeline.Error>

    private func setUp() async throws -> (TestServer, ImagePipeline) {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        return (server, pipeline)
    }

    private func thumb(_ url: URL) -> ImageRequest { ImageRequest(url: url, processors: [.resize(width: 16)]) }

    @Test func orEmptyOnTheFullBranchKeepsTheThumbnail() async throws {
        let (server, pipeline) = try await setUp()
        let shown = Collected<Int>()
        let c = pipeline.imageStream(with: thumb(server.imageURL("a.jpg")))
            .append(pipeline.imageStream(with: server.url("/status/500")).orEmpty)
            .map { $0.image.width }
            .catch { _ in Just(1) }
            .sink(receiveCompletion: { _ in shown.finish() }, receiveValue: { shown.append($0) })
        #expect(await eventually { shown.isDone })
        #expect(shown.all == [16])
        c.cancel()
    }

    @Test func orEmptyOnTheThumbnailBranchStillLoadsTheFull() async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder()
        pipeline.imageStream(with: thumb(server.url("/status/404"))).orEmpty
            .append(pipeline.imageStream(with: server.imageURL("a.jpg")))
            .subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.map(\.image.width) == [64] && recorder.isFinished)
    }

    @Test(arguments: [
        // thumbnail path, full path, widths shown, fails
        ("/images/a.jpg", "/images/a.jpg", [16, 64], false),
        ("/status/404", "/images/a.jpg", [64], false),
        ("/images/a.jpg", "/status/500", [16], false),
        ("/status/404", "/status/500", [], true),
    ])
    func thumbnailThenFull(thumbnailPath: String, fullPath: String, widths: [Int], fails: Bool) async throws {
        let (server, pipeline) = try await setUp()
        let recorder = Recorder()
        pipeline.imageStream(thumbnail: thumb(server.url(thumbnailPath)), full: ImageRequest(url: server.url(fullPath)))
            .subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.map(\.image.width) == widths)
        #expect((recorder.failure?.statusCode == 500) == fails)
        #expect(recorder.isFinished == !fails)
    }

    @Test func cachedFullImageSkipsTheThumbnail() async throws {
        let (server, pipeline) = try await setUp()
        let full = ImageRequest(url: server.imageURL("a.jpg"))
        _ = try await pipeline.image(for: full)
        let recorder = Recorder()
        pipeline.imageStream(thumbnail: thumb(server.url("/images/thumb.jpg")), full: full).subscribe(recorder)
        #expect(recorder.values.map(\.image.width) == [64] && recorder.isFinished)  // synchronously
        #expect(server.requestCount(for: "/images/thumb.jpg") == 0)
    }
}
