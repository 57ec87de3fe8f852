import Dispatch
import Foundation
import Testing
@testable import Comet
import CometTestSupport

// The target code of Comet.docc/ThumbnailThenFull.md ("Loading into a target"), kept identical.

final class ThumbnailView: ImageDisplaying {
    private(set) var image: Image?
    func display(_ image: Image?, isPreview: Bool) { self.image = image }
}

func configure(_ view: ThumbnailView, url: URL, pipeline: ImagePipeline, placeholder: Image, failureImage: Image) {
    let options = ImageLoadingOptions(placeholder: placeholder, failureImage: failureImage)
    pipeline.loadImage(with: url, options: options, into: view)  // cancels the view's previous load
}

@Suite("The thumbnail-then-full guide: targets", .timeLimit(.minutes(10)))
struct ImageTargetDocsTests {
    @Test func theDocumentedTargetShowsPlaceholderThenImageOrFailure() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "a.jpg")
        let queue = DispatchQueue(label: "owner")
        let (pipeline, _) = makeRealPipeline { $0.callbackQueue = queue }
        let placeholder = TestImages.image(width: 2, height: 2)
        let view = ThumbnailView()
        func width() -> Int? { queue.sync { view.image?.width } }  // read where it is written

        queue.sync {
            configure(
                view, url: server.url("/slow/200/a.jpg"), pipeline: pipeline, placeholder: placeholder,
                failureImage: testFailureImage)
        }
        #expect(width() == 2)
        #expect(await eventually { width() == 64 })

        queue.sync {
            configure(
                view, url: server.url("/status/404"), pipeline: pipeline, placeholder: placeholder,
                failureImage: testFailureImage)
        }
        #expect(await eventually { width() == 1 })
    }
}
