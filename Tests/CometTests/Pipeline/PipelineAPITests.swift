import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Pipeline API", .timeLimit(.minutes(10)))
struct PipelineAPITests {
    let url = URL(string: "https://example.com/image.jpg")!

    @Test func completionRunsOnTheCallbackQueue() async throws {
        let queue = DispatchQueue(label: "test.callbacks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let pipeline = ImagePipeline.test(loader: MockDataLoader()) { $0.callbackQueue = queue }
        let onQueue: Bool = await withCheckedContinuation { continuation in
            pipeline.loadImage(with: ImageRequest(url: url)) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true)
            }
        }
        #expect(onQueue)
    }

    @Test func dataForRequestReturnsTheBytesWithoutDecodingIntoTheMemoryCache() async throws {
        let bytes = TestImages.png(width: 3, height: 2)
        let pipeline = ImagePipeline.test(loader: MockDataLoader(data: bytes))
        let (data, response) = try await pipeline.data(for: ImageRequest(url: url))
        #expect(data == bytes)
        #expect(response?.url == url)
        #expect(pipeline.cache[ImageRequest(url: url)] == nil)
    }

    @Test func invalidateFailsRunningAndLaterTasks() async throws {
        let loader = MockDataLoader()
        let pipeline = ImagePipeline.test(loader: loader)
        let running = await loader.holdingLoads(1) { pipeline.imageTask(with: ImageRequest(url: url)) }
        pipeline.invalidate()
        for task in [running, pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/later")!))] {
            do {
                _ = try await task.response
                Issue.record("an invalidated pipeline must not deliver")
            } catch let error as ImagePipeline.Error {
                guard case .pipelineInvalidated = error else { Issue.record("\(error)"); continue }
            }
        }
        #expect(await loader.waitForCancellations(1))
    }

    /// Regression (found by the stress test): a task invalidated after it was created but before
    /// the coordinator started it left an unsubscribed job in the pool forever.
    @Test func taskInvalidatedBeforeItStartsLeavesNoJobBehind() async throws {
        let loader = MockDataLoader()
        let pipeline = ImagePipeline.test(loader: loader)
        pipeline.context.executor.suspend()  // hold the task's start behind the invalidation
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        pipeline.invalidate()
        pipeline.context.executor.resume()
        await #expect(throws: ImagePipeline.Error.self) { _ = try await task.response }
        #expect(await eventually { pipeline.activeJobCount == 0 })
        #expect(loader.loadCount == 0)
    }

    @Test func returnCacheDataDontLoadFailsWithoutLoading() async throws {
        let loader = MockDataLoader()
        let pipeline = ImagePipeline.test(loader: loader)
        do {
            _ = try await pipeline.image(for: ImageRequest(url: url, options: [.returnCacheDataDontLoad]))
            Issue.record("nothing is cached")
        } catch let error as ImagePipeline.Error {
            guard case .dataMissingInCache = error else { Issue.record("\(error)"); return }
        }
        #expect(loader.loadCount == 0)
    }

    @Test func disabledMemoryCacheReadsLoadAgain() async throws {
        let loader = MockDataLoader()
        let pipeline = ImagePipeline.test(loader: loader)
        _ = try await pipeline.image(for: ImageRequest(url: url))
        _ = try await pipeline.image(for: ImageRequest(url: url, options: [.disableMemoryCacheReads]))
        #expect(loader.loadCount == 2)
    }

    @Test func eventsReportProgressThenFinished() async throws {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = ImagePipeline.test(loader: loader)
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        let events = task.events  // events from now on: subscribe before the data arrives
        loader.resume()
        var sawProgress = false
        var finished = false
        for await event in events {
            switch event {
            case .progress(let progress): sawProgress = progress.completed > 0
            case .preview: Issue.record("a baseline JPEG has no previews")
            case .finished(let result): finished = (try? result.get()) != nil
            }
        }
        #expect(sawProgress && finished)
        #expect(task.progress.fraction == 1)
    }

    @Test func imageRequestIsCopyOnWrite() {
        let original = ImageRequest(url: url, priority: .low)
        var copy = original
        copy.priority = .high
        copy.processors = [.resize(width: 10)]
        #expect(original.priority == .low && original.processors.isEmpty)
        #expect(copy.priority == .high && copy.processors.count == 1)
        let literal: ImageRequest = "https://example.com/image.jpg"
        #expect(literal.url == url)
    }

    @Test func errorsSayWhichRequestFailedAndWhy() {
        let request = ImageRequest(url: url)
        let error = ImagePipeline.Error.dataLoadingFailed(
            request: request, statusCode: 404, underlying: DataLoaderError.statusCode(404))
        #expect(error.description.contains(url.absoluteString))
        #expect(error.description.contains("HTTP 404"))
    }

    @Test func anHTTPStatusIsSaidOnce() {
        let request = ImageRequest(url: url)
        let notFound = ImagePipeline.Error.dataLoadingFailed(
            request: request, statusCode: 404, underlying: DataLoaderError.statusCode(404))
        let busy = ImagePipeline.Error.dataLoadingFailed(
            request: request, statusCode: 503, underlying: DataLoaderError.retryAfter(statusCode: 503, seconds: 7))
        #expect(notFound.description.components(separatedBy: "404").count == 2, "\(notFound)")
        #expect(busy.description.components(separatedBy: "503").count == 2, "\(busy)")
        #expect(busy.description.contains("retry after 7 s"))
    }
}
