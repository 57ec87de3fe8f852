import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// What a pipeline keeps after its work is done: nothing that outlives the caller's references.
@Suite("Pipeline lifetime", .timeLimit(.minutes(10)))
struct PipelineLifetimeTests {
    /// Weak references filled by `load(processors:)`.
    final class Probe: @unchecked Sendable {
        // Sendable: written once by the test before it reads them; no concurrent access.
        weak var pipeline: ImagePipeline?
        weak var context: PipelineContext?
        weak var executor: PipelineExecutor?
        weak var decodingQueue: WorkQueue?
        weak var backlog: DecodedImageBacklog?
    }

    private func load(processors: [any ImageProcessing], into probe: Probe) async throws {
        let pipeline = ImagePipeline.test(loader: MockDataLoader(data: TestImages.jpeg(width: 64, height: 48))) {
            $0.imageCache = nil
        }
        probe.pipeline = pipeline
        probe.context = pipeline.context
        probe.executor = pipeline.context.executor
        probe.decodingQueue = pipeline.context.decodingQueue
        probe.backlog = pipeline.context.backlog
        let tasks = (0..<8).map {
            pipeline.imageTask(
                with: ImageRequest(url: URL(string: "https://example.com/\($0).jpg"), processors: processors))
        }
        for task in tasks { _ = try await task.image }
        #expect(await eventually { pipeline.activeJobCount == 0 && pipeline.activeTaskCount == 0 })
    }

    @Test func aPipelineIsReleasedAfterItsLoadsFinish() async throws {
        let probe = Probe()
        try await load(processors: [], into: probe)
        #expect(await eventually { probe.pipeline == nil })
    }

    /// The engine's parts go with it: the decoding queue and the decoded-image backlog refer to
    /// each other, so one of the two references must be weak.
    @Test func theGraphsExecutorQueuesAndBacklogAreReleasedWithThePipeline() async throws {
        let probe = Probe()
        try await load(processors: [], into: probe)
        #expect(
            await eventually {
                probe.context == nil && probe.executor == nil && probe.decodingQueue == nil && probe.backlog == nil
            })
    }

    /// A job that finishes inside its first subscription (here a cache-only request that finds
    /// nothing, failing at once) must not leave the task and its subscription holding each other
    /// (found by LeakSanitizer: the task's handler was kept by the ended subscription).
    @Test func aTaskWhoseJobEndsInsideSubscribeIsReleased() async throws {
        final class WeakTask: @unchecked Sendable { weak var task: ImageTask? }
        let weak = WeakTask()
        let probe = Probe()
        await {
            let pipeline = ImagePipeline.test(loader: MockDataLoader())
            probe.context = pipeline.context
            let task = pipeline.imageTask(
                with: ImageRequest(
                    url: URL(string: "https://example.com/missing.jpg"), options: [.returnCacheDataDontLoad]))
            weak.task = task
            await #expect(throws: ImagePipeline.Error.self) { _ = try await task.response }
        }()
        #expect(await eventually { weak.task == nil && probe.context == nil })
    }

    @Test func aPipelineThatProcessedImagesIsReleasedAfterItsLoadsFinish() async throws {
        let probe = Probe()
        try await load(
            processors: [.resize(size: Size(width: 16, height: 16), contentMode: .aspectFill, crop: true)], into: probe)
        #expect(await eventually { probe.pipeline == nil })
    }

    /// Finished jobs (and the images and bytes their work captured) must not keep each other
    /// alive: once the pipeline is gone, so is its task graph.
    @Test func finishedJobsReleaseTheTaskGraph() async throws {
        let probe = Probe()
        try await load(
            processors: [.resize(size: Size(width: 16, height: 16), contentMode: .aspectFill, crop: true)], into: probe)
        #expect(await eventually { probe.context == nil })
    }

    /// The same through the real loader and server, with a disk cache: the URLSession task and
    /// its callbacks, and the disk read's work, must not keep the graph alive either.
    @Test func aPipelineOverTheRealLoaderIsReleasedAfterNetworkAndDiskLoads() async throws {
        let server = try await TestServer.start()
        for index in 0..<4 { server.serve(TestImages.jpeg(width: 40 + index, height: 30), at: "\(index).jpg") }
        let probe = Probe()
        let dataCache = temporaryDataCache()
        try await {
            let (pipeline, _) = makeRealPipeline {
                $0.dataCache = dataCache; $0.imageCache = nil
            }
            probe.context = pipeline.context
            probe.executor = pipeline.context.executor
            probe.decodingQueue = pipeline.context.decodingQueue
            probe.backlog = pipeline.context.backlog
            for _ in 0..<2 {  // network, then disk-cache hits
                for index in 0..<4 { _ = try await pipeline.image(for: server.imageURL("\(index).jpg")) }
                dataCache.flush()
            }
            #expect(await eventually { pipeline.activeJobCount == 0 })
        }()
        #expect(await eventually { probe.context == nil })
    }

    @Test func aPipelineIsReleasedAfterItsLoadsAreCancelled() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "slow.jpg")
        let probe = Probe()
        try await {
            let (pipeline, _) = makeRealPipeline()
            probe.context = pipeline.context
            probe.executor = pipeline.context.executor
            probe.decodingQueue = pipeline.context.decodingQueue
            probe.backlog = pipeline.context.backlog
            let tasks = (0..<4).map {
                pipeline.imageTask(with: ImageRequest(url: server.url("/slow/2000/slow.jpg?\($0)")))
            }
            try await Task.sleep(for: .milliseconds(100))
            for task in tasks { task.cancel() }
            #expect(await eventually { pipeline.activeJobCount == 0 })
        }()
        #expect(await eventually { probe.context == nil })
    }
}
