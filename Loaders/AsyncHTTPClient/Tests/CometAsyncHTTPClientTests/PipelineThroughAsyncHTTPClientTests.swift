import Comet
import CometAsyncHTTPClient
import CometTestSupport
import Foundation
import Testing

/// A pipeline whose data loader is `AsyncHTTPClientDataLoader`: images decode, errors carry
/// their status, progress arrives, and transient failures are retried, as with URLSession.
@Suite("ImagePipeline on AsyncHTTPClientDataLoader", .timeLimit(.minutes(10)))
struct PipelineThroughAsyncHTTPClientTests {
    private func makePipeline(_ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = AsyncHTTPClientDataLoader()
            $0.imageCache = ImageCache()
            $0.dataCache = nil
            configure(&$0)
        }
    }

    @Test func decodesImagesFromTheServer() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 80, height: 60), at: "a.jpg")
        server.serve(TestImages.png(width: 30, height: 20), at: "b.png")
        let pipeline = makePipeline()
        let jpeg = try await pipeline.image(for: server.imageURL("a.jpg"))
        let png = try await pipeline.image(for: server.imageURL("b.png"))
        #expect(jpeg.width == 80 && jpeg.height == 60)
        #expect(png.width == 30 && png.height == 20)
    }

    @Test func anErrorStatusReachesTheCallerWithItsCode() async throws {
        let server = try await TestServer.start()
        do {
            _ = try await makePipeline().image(for: server.url("/status/404"))
            Issue.record("a 404 must fail")
        } catch let error as ImagePipeline.Error {
            #expect(error.statusCode == 404)
        }
    }

    @Test func aBodyCutShortIsRetriedAndThenDecodes() async throws {
        let faults = try FaultServer(image: TestImages.png(width: 9, height: 7))
        let pipeline = makePipeline {
            $0.retryPolicy = ImagePipeline.RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10))
        }
        let image = try await pipeline.image(for: faults.url("/reset-once"))
        #expect(image.width == 9 && image.height == 7)
        #expect(faults.requestCount(for: "/reset-once") == 2)
    }
}
