import Foundation
import Synchronization
import Testing
@testable import Comet
import CometTestSupport

// The code of Comet.docc/ThumbnailThenFull.md, kept identical so it compiles.

enum ContentMode { case aspectFill, aspectFit }

/// Shows the thumbnail, then the full image; the failure image if loading fails.
func showThumbnailThenFull(
    url: URL, pipeline: ImagePipeline, failureImage: Image,
    show: @escaping (Image, ContentMode) -> Void
) -> AnyCancellable {
    let thumb = pipeline.imageStream(with: ImageRequest(url: url, processors: [.resize(width: 256)]))
    let full = pipeline.imageStream(with: url)
    return thumb.append(full)
        .map { ($0.image, ContentMode.aspectFill) }
        .catch { _ in Just((failureImage, .aspectFit)) }
        .sink { image, mode in show(image, mode) }
}

@Suite("The thumbnail-then-full guide runs", .timeLimit(.minutes(10)))
struct ImageStreamDocsTests {
    @Test func theDocumentedChainShowsThumbnailThenFull() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 600, height: 400), at: "photo.jpg")
        let (pipeline, _) = makeRealPipeline()
        let shown = Collected<(Int, ContentMode)>()
        let cancellable = showThumbnailThenFull(
            url: server.imageURL("photo.jpg"), pipeline: pipeline,
            failureImage: testFailureImage
        ) { image, mode in
            shown.append((image.width, mode))
        }
        #expect(await eventually { shown.count == 2 })
        #expect(shown.all.map(\.0) == [256, 600])
        #expect(shown.all.map(\.1) == [.aspectFill, .aspectFill])
        cancellable.cancel()
    }

    @Test func theDocumentedOneLiner() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 600, height: 400), at: "photo.jpg")
        let (pipeline, _) = makeRealPipeline()
        let url = server.imageURL("photo.jpg")
        let failureImage = testFailureImage
        let shown = Collected<Int>()
        func show(_ image: Image, _ mode: ContentMode) { shown.append(image.width) }

        let cancellable = pipeline.imageStream(
            thumbnail: ImageRequest(url: url, processors: [.resize(width: 256)]),
            full: ImageRequest(url: url)
        )
        .map(\.image)
        .catch { _ in Just(failureImage) }
        .sink { image in show(image, .aspectFill) }

        #expect(await eventually { shown.count == 2 })
        #expect(shown.all == [256, 600])
        cancellable.cancel()
    }
}
