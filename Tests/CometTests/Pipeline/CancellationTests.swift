import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Cancellation", .timeLimit(.minutes(10)))
struct CancellationTests {
    let url = URL(string: "https://example.com/image.jpg")!
    let loader = MockDataLoader()
    let pipeline: ImagePipeline

    init() { pipeline = .test(loader: loader) }

    @Test func cancellingOneOfTwoCoalescedTasksLetsTheOtherFinish() async throws {
        let (first, second) = await loader.holdingLoads(1) {
            (pipeline.imageTask(with: ImageRequest(url: url)), pipeline.imageTask(with: ImageRequest(url: url)))
        }
        first.cancel()
        loader.resume()
        _ = try await second.image
        await #expect(throws: ImagePipeline.Error.self) { _ = try await first.image }
        #expect(loader.cancelCount == 0)
    }

    @Test func cancellingEveryTaskCancelsTheDownload() async throws {
        let tasks = await loader.holdingLoads(1) {
            (0..<3).map { _ in pipeline.imageTask(with: ImageRequest(url: url)) }
        }
        for task in tasks { task.cancel() }
        #expect(await loader.waitForCancellations(1))
        #expect(await eventually { pipeline.activeJobCount == 0 })
    }

    @Test func cancelIsSynchronousAndIdempotent() async throws {
        loader.isSuspended = true
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        task.cancel()
        #expect(task.isCancelled)
        task.cancel()
        task.cancel()
        do {
            _ = try await task.response
            Issue.record("a cancelled task must not succeed")
        } catch let error as ImagePipeline.Error {
            #expect(error.isCancellation)
        }
    }

    @Test func taskCancelledBeforeItStartsLoadsNothing() async throws {
        pipeline.context.executor.suspend()  // hold the graph so the cancel comes first
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        task.cancel()
        pipeline.context.executor.resume()
        await #expect(throws: ImagePipeline.Error.self) { _ = try await task.image }
        try await Task.sleep(for: .milliseconds(50))
        #expect(loader.loadCount == 0)
    }

    @Test func cancellingTheAwaitingSwiftTaskCancelsTheImageTask() async throws {
        let swiftTask = await loader.holdingLoads(1) {
            Task { [pipeline, url] in try await pipeline.image(for: ImageRequest(url: url)) }
        }
        swiftTask.cancel()
        await #expect(throws: (any Error).self) { _ = try await swiftTask.value }
        #expect(await loader.waitForCancellations(1))
    }

    @Test func completionHandlerReportsCancellation() async throws {
        loader.isSuspended = true
        let result: Result<ImageResponse, ImagePipeline.Error> = await withCheckedContinuation { continuation in
            let task = pipeline.loadImage(with: ImageRequest(url: url)) { continuation.resume(returning: $0) }
            task.cancel()
        }
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.isCancellation)
    }
}

@Suite("Priority", .timeLimit(.minutes(10)))
struct PriorityTests {
    let loader = MockDataLoader()
    /// One download at a time, so the rest queue behind the first.
    let pipeline: ImagePipeline

    init() { pipeline = .test(loader: loader) { $0.dataLoadingConcurrencyLimit = 1 } }

    @Test func queuedWorkStartsInPriorityOrderThenFirstInFirstOut() async throws {
        let blocker = await loader.holdingLoads(1) {
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/blocker")!))
        }
        let order: [(String, ImageRequest.Priority)] = [
            ("low1", .low), ("high1", .high), ("normal", .normal), ("high2", .high), ("low2", .low),
        ]
        let tasks = order.map { name, priority in
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/\(name)")!, priority: priority))
        }
        try await Task.sleep(for: .milliseconds(50))  // let the coordinator queue them all
        loader.resume()
        _ = try await blocker.image
        for task in tasks { _ = try await task.image }
        #expect(loader.startedURLs.map(\.lastPathComponent) == ["blocker", "high1", "high2", "normal", "low1", "low2"])
    }

    @Test func queuedDownloadIsRaisedWhenAHigherPriorityTaskJoinsAndLoweredWhenItLeaves() async throws {
        _ = await loader.holdingLoads(1) {
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/blocker")!))
        }
        let shared = URL(string: "https://example.com/shared")!
        let normal = pipeline.imageTask(
            with: ImageRequest(url: URL(string: "https://example.com/normal")!, priority: .normal))
        let low = pipeline.imageTask(with: ImageRequest(url: shared, priority: .low))
        let high = pipeline.imageTask(with: ImageRequest(url: shared, priority: .veryHigh))
        // The tasks join the graph from a worker (imageTask schedules): wait for the states, not a time.
        let sharedPriority = {
            pipeline.context.executor.sync { graph in
                pipeline.context.fetchJobPriority(for: shared.absoluteString, graph)
            }
        }
        #expect(await eventually { sharedPriority() == .veryHigh })
        high.cancel()
        #expect(await eventually { sharedPriority() == .low })
        low.priority = .high
        #expect(await eventually { sharedPriority() == .high })
        loader.resume()
        _ = try await (low.image, normal.image)
        #expect(loader.startedURLs.map(\.lastPathComponent) == ["blocker", "shared", "normal"])
    }

    /// Regression (Nuke's `loadDataCancelImmediately`): the cancel of a Swift task cancelled
    /// before the call reached the graph ahead of the start, found nothing to cancel, and the
    /// load ran anyway. The executor is held so that the cancel is queued first.
    @Test func dataForATaskCancelledBeforeTheCallThrowsWithoutStartingALoad() async throws {
        pipeline.context.executor.suspend()
        let request = ImageRequest(url: URL(string: "https://example.com/data")!)
        let call = Task { [pipeline] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pipeline.data(for: request)
        }
        #expect(await eventually { pipeline.context.executor.queuedWorkCount == 2 })
        pipeline.context.executor.resume()
        do {
            _ = try await call.value
            Issue.record("a cancelled data(for:) delivered")
        } catch let error as ImagePipeline.Error {
            guard case .cancelled = error else { Issue.record("\(error)"); return }
        }
        #expect(loader.loadCount == 0)
        #expect(await eventually { pipeline.activeJobCount == 0 })
    }
}
