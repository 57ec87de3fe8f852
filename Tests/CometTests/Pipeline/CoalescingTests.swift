import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Coalescing", .timeLimit(.minutes(10)))
struct CoalescingTests {
    let url = URL(string: "https://example.com/image.jpg")!
    let loader = MockDataLoader()
    let pipeline: ImagePipeline

    init() { pipeline = .test(loader: loader) }

    @Test func twoEqualRequestsShareOneDownload() async throws {
        let (first, second) = await loader.holdingLoads(1) {
            (pipeline.imageTask(with: ImageRequest(url: url)), pipeline.imageTask(with: ImageRequest(url: url)))
        }
        loader.resume()
        _ = try await (first.image, second.image)
        #expect(loader.loadCount == 1)
        #expect(pipeline.metrics.decodes == 1)
    }

    @Test func aThousandConcurrentEqualRequestsShareOneDownload() async throws {
        let tasks = await loader.holdingLoads(1) {
            (0..<1000).map { _ in pipeline.imageTask(with: ImageRequest(url: url)) }
        }
        loader.resume()
        for task in tasks { _ = try await task.image }
        #expect(loader.loadCount == 1)
        #expect(pipeline.metrics.decodes == 1)
    }

    @Test func sharedProcessorPrefixRunsOnce() async throws {
        let resize = CountingProcessor("resize")
        let blur = CountingProcessor("blur")
        let (a, b) = await loader.holdingLoads(1) {
            (
                pipeline.imageTask(with: ImageRequest(url: url, processors: [resize])),
                pipeline.imageTask(with: ImageRequest(url: url, processors: [resize, blur]))
            )
        }
        loader.resume()
        _ = try await (a.image, b.image)
        #expect(resize.runCount == 1)
        #expect(blur.runCount == 1)
        #expect(loader.loadCount == 1)
    }

    @Test func differentProcessorsShareTheDownloadAndRunOnceEach() async throws {
        let p1 = CountingProcessor("one"), p2 = CountingProcessor("two")
        let (a, b) = await loader.holdingLoads(1) {
            (
                pipeline.imageTask(with: ImageRequest(url: url, processors: [p1])),
                pipeline.imageTask(with: ImageRequest(url: url, processors: [p2]))
            )
        }
        loader.resume()
        _ = try await (a.image, b.image)
        #expect(p1.runCount == 1 && p2.runCount == 1)
        #expect(loader.loadCount == 1)
        #expect(pipeline.metrics.decodes == 1)
    }

    @Test func disabledCoalescingLoadsEveryRequest() async throws {
        let pipeline = ImagePipeline.test(loader: loader) {
            $0.isTaskCoalescingEnabled = false
            $0.imageCache = nil
        }
        for _ in 0..<5 { _ = try await pipeline.image(for: ImageRequest(url: url)) }
        #expect(loader.loadCount == 5)
    }

    @Test func pipelineHoldsNoJobsOrTasksAfterEverythingFinished() async throws {
        let tasks = (0..<20).map { i in
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/\(i % 4).jpg")!))
        }
        for task in tasks { _ = try await task.image }
        #expect(await eventually { pipeline.activeJobCount == 0 && pipeline.activeTaskCount == 0 })
    }
}
