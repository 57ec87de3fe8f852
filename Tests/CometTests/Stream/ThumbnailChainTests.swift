import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// The five cases of combine-semantics.md for
/// `thumb.append(full).map { … }.catch { Just(…) }.sink { … }`, through the real server.
@Suite("Thumbnail, then full image: the chain", .timeLimit(.minutes(10)))
struct ThumbnailChainTests {
    enum ContentMode { case aspectFill, aspectFit }

    struct Shown {
        let width: Int
        let mode: ContentMode
    }

    /// The chain, exactly as documented, with a completion probe.
    private func chain(
        _ pipeline: ImagePipeline, thumb thumbRequest: ImageRequest, full fullURL: URL,
        into shown: Collected<Shown>, onThumbnail: @escaping @Sendable () -> Void = {}
    ) -> AnyCancellable {
        let thumb = pipeline.imageStream(with: thumbRequest)
        let full = pipeline.imageStream(with: fullURL)
        return thumb.append(full)
            .map { ($0.image, ContentMode.aspectFill) }
            .catch { _ in Just((testFailureImage, .aspectFit)) }
            .sink(
                receiveCompletion: { _ in shown.finish() },
                receiveValue: { image, mode in
                    if shown.count == 0 { onThumbnail() }
                    shown.append(Shown(width: image.width, mode: mode))
                })
    }

    private func setUp() async throws -> (TestServer, ImagePipeline) {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        return (server, pipeline)
    }

    private func thumbRequest(_ url: URL) -> ImageRequest {
        ImageRequest(url: url, processors: [.resize(width: 16)])
    }

    @Test func bothSucceedThumbnailThenFullAndTheFullStartsOnlyAfterTheThumbnail() async throws {
        let (server, pipeline) = try await setUp()
        let shown = Collected<Shown>()
        let fullRequestsWhenThumbnailArrived = Collected<Int>()
        // The thumbnail is slow and the full image fast: the order must still hold.
        let c = chain(
            pipeline, thumb: thumbRequest(server.url("/slow/200/a.jpg")), full: server.imageURL("a.jpg"),
            into: shown,
            onThumbnail: { fullRequestsWhenThumbnailArrived.append(server.requestCount(for: "/images/a.jpg")) })
        #expect(await eventually { shown.isDone })
        #expect(shown.all.map(\.width) == [16, 64])
        #expect(shown.all.map(\.mode) == [.aspectFill, .aspectFill])
        #expect(fullRequestsWhenThumbnailArrived.all == [0])
        #expect(server.requestCount(for: "/slow/200/a.jpg") == 1 && server.requestCount(for: "/images/a.jpg") == 1)
        c.cancel()
    }

    @Test func thumbnailFailsFailureImageAndTheFullIsNeverRequested() async throws {
        let (server, pipeline) = try await setUp()
        let shown = Collected<Shown>()
        let c = chain(
            pipeline, thumb: thumbRequest(server.url("/status/404")), full: server.imageURL("a.jpg"), into: shown)
        #expect(await eventually { shown.isDone })
        try await Task.sleep(for: .milliseconds(300))
        #expect(shown.all.map(\.width) == [1] && shown.all.map(\.mode) == [.aspectFit])
        #expect(server.requestCount(for: "/images/a.jpg") == 0 && server.totalRequestCount == 1)
        c.cancel()
    }

    @Test func fullFailsThumbnailThenFailureImage() async throws {
        let (server, pipeline) = try await setUp()
        let shown = Collected<Shown>()
        let c = chain(
            pipeline, thumb: thumbRequest(server.imageURL("a.jpg")), full: server.url("/status/500"), into: shown)
        #expect(await eventually { shown.isDone })
        #expect(shown.all.map(\.width) == [16, 1])
        #expect(shown.all.map(\.mode) == [.aspectFill, .aspectFit])
        #expect(server.requestCount(for: "/status/500") == 1)
        c.cancel()
    }

    @Test func cachedThumbnailIsDeliveredInsideSubscribeThenTheFullStarts() async throws {
        let (server, pipeline) = try await setUp()
        let thumb = thumbRequest(server.imageURL("a.jpg"))
        _ = try await pipeline.image(for: thumb)
        let shown = Collected<Shown>()
        let c = chain(pipeline, thumb: thumb, full: server.url("/slow/100/a.jpg"), into: shown)
        #expect(shown.all.map(\.width) == [16])  // synchronously, before any waiting
        #expect(await eventually { shown.isDone })
        #expect(shown.all.map(\.width) == [16, 64])
        #expect(server.requestCount(for: "/slow/100/a.jpg") == 1)
        c.cancel()
    }

    @Test func cancelWhileTheThumbnailLoadsStopsEverything() async throws {
        let (server, pipeline) = try await setUp()
        let shown = Collected<Shown>()
        let c = chain(
            pipeline, thumb: thumbRequest(server.url("/slow/400/a.jpg")), full: server.imageURL("a.jpg"), into: shown)
        #expect(await eventually { server.requestCount(for: "/slow/400/a.jpg") == 1 })
        c.cancel()
        #expect(await eventually { pipeline.activeTaskCount == 0 })
        try await Task.sleep(for: .milliseconds(700))
        #expect(shown.all.isEmpty && !shown.isDone)
        #expect(server.requestCount(for: "/images/a.jpg") == 0)
    }

    @Test func cancelWhileTheFullImageLoadsStopsEverything() async throws {
        let (server, pipeline) = try await setUp()
        let shown = Collected<Shown>()
        let c = chain(
            pipeline, thumb: thumbRequest(server.imageURL("a.jpg")), full: server.url("/slow/400/a.jpg"), into: shown)
        #expect(await eventually { server.requestCount(for: "/slow/400/a.jpg") == 1 })
        c.cancel()
        #expect(await eventually { pipeline.activeTaskCount == 0 })
        try await Task.sleep(for: .milliseconds(700))
        #expect(shown.all.map(\.width) == [16] && !shown.isDone)
    }
}
