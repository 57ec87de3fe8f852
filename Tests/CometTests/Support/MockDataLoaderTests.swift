import Foundation
import Testing
@testable import Comet

/// The test loader's own waits: resumed by the loads and cancellations themselves, bounded.
@Suite("MockDataLoader waits", .timeLimit(.minutes(10)))
struct MockDataLoaderTests {
    let loader = MockDataLoader()
    let url = URL(string: "https://example.com/image.jpg")!

    @Test func aWaitForLoadsEndsWhenTheLoadsArrive() async {
        let pipeline = ImagePipeline.test(loader: loader)
        loader.isSuspended = true
        let tasks = (0..<2).map {
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/\($0).jpg")!))
        }
        #expect(await loader.waitForLoads(2))
        #expect(loader.pendingCount == 2)
        loader.resume()
        for task in tasks { _ = try? await task.image }
    }

    /// It returns `false` instead of waiting on (the suite's time limit bounds it; no wall-clock
    /// assertion: under a loaded sanitizer run the resumption itself took seconds).
    @Test func aWaitForLoadsThatNeverComeGivesUpAfterItsTime() async {
        #expect(await !loader.waitForLoads(1, within: 0.2))
    }

    @Test func aWaitForCancellationsEndsWhenTheLoadIsCancelled() async {
        let pipeline = ImagePipeline.test(loader: loader)
        let task = await loader.holdingLoads(1) { pipeline.imageTask(with: ImageRequest(url: url)) }
        task.cancel()
        #expect(await loader.waitForCancellations(1))
    }
}
