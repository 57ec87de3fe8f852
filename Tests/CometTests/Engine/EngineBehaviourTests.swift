import Locking
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// The engine under the situations its execution model has to get right: re-entrant callers,
/// cancels racing deliveries, work finishing after invalidation, a bounded decoded backlog.
@Suite("Engine behaviour", .timeLimit(.minutes(10)))
struct EngineBehaviourTests {
    /// A loader that answers at once, on the calling thread: its callbacks enter the graph while
    /// the graph is already running the call.
    final class SynchronousLoader: DataLoading, @unchecked Sendable {
        let data: Data
        init(data: Data = TestImages.png()) { self.data = data }
        func loadData(
            with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
            completion: @escaping @Sendable ((any Error)?) -> Void
        ) -> any DataLoadingTask {
            didReceiveData(
                data,
                URLResponse(url: request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil))
            completion(nil)
            return NoTask()
        }
        struct NoTask: DataLoadingTask { func cancel() {} }
    }

    func url(_ index: Int) -> URL { URL(string: "https://engine.example/\(index).png")! }

    @Test func aLoaderThatAnswersInsideTheGraphStillCompletesEveryRequest() async throws {
        let pipeline = ImagePipeline.test(loader: SynchronousLoader())
        for index in 0..<20 { _ = try await pipeline.image(for: url(index)) }
        #expect(pipeline.metrics.decodes == 20)
    }

    @Test func aCompletionHandlerThatStartsANewRequestIsServed() async throws {
        let pipeline = ImagePipeline.test(loader: SynchronousLoader())
        let second = Locked<Result<ImageResponse, ImagePipeline.Error>?>(nil)
        pipeline.loadImage(with: ImageRequest(url: url(1))) { _ in
            pipeline.loadImage(with: ImageRequest(url: url(2))) { result in second.withLock { $0 = result } }
        }
        #expect(await eventually { second.withLock { $0 } != nil })
        #expect((try? second.withLock { $0 }?.get()) != nil)
    }

    @Test func anAwaitingTaskThatStartsAnotherFromItsEventStreamIsServed() async throws {
        let pipeline = ImagePipeline.test(loader: SynchronousLoader())
        let task = pipeline.imageTask(with: ImageRequest(url: url(1)))
        for await event in task.events {
            if case .finished = event { _ = try await pipeline.image(for: url(2)) }
        }
        #expect(pipeline.metrics.decodes == 2)
    }

    /// Cancels race deliveries from the loader's thread: every task ends exactly once, as a
    /// success or a cancellation, and the graph is left empty.
    @Test func cancelsRacingDeliveriesEndEveryTaskOnce() async throws {
        let loader = MockDataLoader(data: TestImages.png())
        let pipeline = ImagePipeline.test(loader: loader)
        let outcomes = Locked((successes: 0, cancellations: 0, other: 0))
        for round in 0..<200 {
            let task = pipeline.loadImage(with: ImageRequest(url: url(round))) { result in
                outcomes.withLock {
                    switch result {
                    case .success: $0.successes += 1
                    case .failure(let error) where error.isCancellation: $0.cancellations += 1
                    case .failure: $0.other += 1
                    }
                }
            }
            if round.isMultiple(of: 3) { await Task.yield() }
            task.cancel()
        }
        #expect(await eventually { outcomes.withLock { $0.successes + $0.cancellations + $0.other } == 200 })
        #expect(outcomes.withLock { $0.other } == 0)
        #expect(await eventually { pipeline.activeJobCount == 0 && pipeline.activeTaskCount == 0 })
    }

    /// A decode that finishes after its pipeline was invalidated: the task has already failed
    /// with `pipelineInvalidated`, the late image is neither delivered nor cached, no job remains.
    @Test func aDecodeFinishingAfterInvalidationIsDroppedAndNotCached() async throws {
        let gate = DecoderGate()
        let cache = ImageCache()
        let pipeline = ImagePipeline.test(loader: MockDataLoader(data: GatedFormat.file)) {
            $0.decoders.register(
                GatedFormat.type, decoder: GatedFormat.Decoder(gate: gate), recognizedBy: GatedFormat.recognizes)
            $0.imageCache = cache
        }
        let request = ImageRequest(url: url(1))
        let task = pipeline.imageTask(with: request)
        #expect(await eventually { gate.entered == 1 })
        pipeline.invalidate()
        gate.open()
        do {
            _ = try await task.image
            Issue.record("an invalidated pipeline's task must not succeed")
        } catch let error as ImagePipeline.Error {
            if case .pipelineInvalidated = error {} else { Issue.record("expected pipelineInvalidated, got \(error)") }
        }
        #expect(await eventually { pipeline.activeJobCount == 0 })
        #expect(pipeline.cache[request] == nil)
        #expect(cache.totalCount == 0)
    }

    /// With a backlog of 2 and a processor that holds every image, at most 2 decodes happen
    /// until processing lets images go; then every request completes.
    @Test func decodingWaitsWhileTheDecodedBacklogIsFull() async throws {
        let processor = GatedProcessor()
        let pipeline = ImagePipeline.test(loader: MockDataLoader(data: TestImages.png())) {
            $0.decodedImageBacklogLimit = 2
            $0.decodingConcurrencyLimit = 4
            $0.processingConcurrencyLimit = 4
        }
        let tasks = (0..<6).map { pipeline.imageTask(with: ImageRequest(url: url($0), processors: [processor])) }
        #expect(await eventually { processor.entered == 2 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(pipeline.metrics.decodes == 2)
        #expect(processor.entered == 2)
        processor.open()
        for task in tasks { _ = try await task.image }
        #expect(pipeline.metrics.decodes == 6)
        // A ticket goes back when the last holder of its decoded image lets go, which may be
        // just after the task has delivered the image: wait for it rather than read it once.
        let context = pipeline.context
        #expect(await eventually { context.executor.sync { graph in context.backlog.count(graph) } == 0 })
    }

    /// Downloads one at a time, one decode at a time, a backlog of one decoded image held by a
    /// processor: the first image is decoded, the next two wait for the decoder, the download
    /// already running when the second queued may finish, and the downloads stop there instead
    /// of fetching the other six; letting the processor go completes every request.
    @Test func downloadsWaitWhileDownloadedImagesWaitForADecoder() async throws {
        let processor = GatedProcessor()
        let loader = MockDataLoader(data: TestImages.png())
        let pipeline = ImagePipeline.test(loader: loader) {
            $0.dataLoadingConcurrencyLimit = 1
            $0.decodingConcurrencyLimit = 1
            $0.decodedImageBacklogLimit = 1
            $0.undecodedDataBacklogLimit = 2
        }
        let tasks = (0..<10).map { pipeline.imageTask(with: ImageRequest(url: url($0), processors: [processor])) }
        #expect(await eventually { processor.entered == 1 && loader.loadCount >= 3 })
        try await Task.sleep(for: .milliseconds(100))
        #expect((3...4).contains(loader.loadCount))
        processor.open()
        for task in tasks { _ = try await task.image }
        #expect(loader.loadCount == 10)
        #expect(pipeline.metrics.decodes == 10)
    }
}
