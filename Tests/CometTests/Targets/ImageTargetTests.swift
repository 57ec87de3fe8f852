import Dispatch
import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Loading into targets through the real server", .timeLimit(.minutes(10)))
struct ImageTargetTests {
    private let placeholder = TestImages.image(width: 2, height: 2)
    private let failure = TestImages.image(width: 3, height: 3)

    private func setUp(_ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) async throws -> (
        TestServer, ImagePipeline
    ) {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 64, height: 48), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline(configure)
        return (server, pipeline)
    }

    @Test func placeholderAtOnceThenTheImageOnTheCallbackQueue() async throws {
        let (server, pipeline) = try await setUp { $0.callbackQueue = QueueLabel.queue("callbacks") }
        let target = TestTarget()
        let done = Collected<Bool>()
        let task = pipeline.loadImage(
            with: server.url("/slow/100/a.jpg"), options: ImageLoadingOptions(placeholder: placeholder),
            into: target
        ) { result in done.append((try? result.get()) != nil) }
        #expect(task != nil)
        #expect(target.widths == [2])  // synchronously
        #expect(await eventually { done.count == 1 })
        #expect(done.all == [true])
        #expect(target.shown == [.init(width: 2, isPreview: false), .init(width: 64, isPreview: false)])
        #expect(target.queueLabels == [nil, "callbacks"])
    }

    @Test func noPlaceholderClearsTheTargetFirst() async throws {
        let (server, pipeline) = try await setUp()
        let target = TestTarget()
        pipeline.loadImage(with: server.imageURL("a.jpg"), into: target)
        #expect(target.widths == [nil])
        #expect(await eventually { target.widths == [nil, 64] })
    }

    @Test func failureImageOnFailureAndOnlyThen() async throws {
        let (server, pipeline) = try await setUp()
        let target = TestTarget()
        let options = ImageLoadingOptions(placeholder: placeholder, failureImage: failure)
        let done = Collected<ImagePipeline.Error?>()
        pipeline.loadImage(with: server.url("/status/404"), options: options, into: target) { result in
            if case .failure(let error) = result { done.append(error) } else { done.append(nil) }
        }
        #expect(await eventually { done.count == 1 })
        #expect(done.all.first??.statusCode == 404)
        #expect(target.widths == [2, 3])

        // Without a failure image the placeholder stays.
        let other = TestTarget()
        let finished = Collected<Bool>()
        pipeline.loadImage(
            with: server.url("/status/500"), options: ImageLoadingOptions(placeholder: placeholder),
            into: other
        ) { _ in finished.append(true) }
        #expect(await eventually { finished.count == 1 })
        #expect(other.widths == [2])
    }

    @Test func memoryHitIsShownSynchronouslyWithoutPlaceholder() async throws {
        let (server, pipeline) = try await setUp()
        let request = ImageRequest(url: server.imageURL("a.jpg"), processors: [.resize(width: 32)])
        _ = try await pipeline.image(for: request)
        let target = TestTarget()
        let completed = Collected<ImageResponse>()
        let task = pipeline.loadImage(
            with: request, options: ImageLoadingOptions(placeholder: placeholder), into: target
        ) {
            if case .success(let response) = $0 { completed.append(response) }
        }
        #expect(task == nil)
        #expect(target.shown == [.init(width: 32, isPreview: false)])
        #expect(target.queueLabels == [nil])
        #expect(completed.all.first?.cacheType == .memory)
        #expect(server.requestCount(for: "/images/a.jpg") == 1)
    }

    /// Cell reuse: one target, 100 loads in a row; only the last one is ever shown.
    @Test func rapidReuseShowsOnlyTheLast() async throws {
        let server = try await TestServer.start()
        for i in 0..<100 { server.serve(TestImages.jpeg(width: 100 + i, height: 20), at: "\(i).jpg") }
        let (pipeline, _) = makeRealPipeline()
        let target = TestTarget()
        let outcomes = Collected<(Int, Bool)>()
        var tasks: [ImageTask] = []
        for i in 0..<100 {
            let task = pipeline.loadImage(
                with: server.imageURL("\(i).jpg"), options: ImageLoadingOptions(placeholder: placeholder),
                into: target
            ) { result in
                outcomes.append((i, (try? result.get()) != nil))
            }
            tasks.append(try #require(task))
        }
        #expect(await eventually { outcomes.count == 100 })
        try await Task.sleep(for: .milliseconds(200))
        let images = target.widths.filter { $0 != 2 }
        #expect(images == [199], "\(images)")
        #expect(target.widths.last == 199)
        #expect(target.maxConcurrentDisplays == 1)
        #expect(outcomes.all.filter { $0.1 }.map { $0.0 } == [99])
        #expect(tasks.dropLast().allSatisfy { $0.isCancelled })
        #expect(await eventually { pipeline.activeTaskCount == 0 })
    }

    /// The same from many threads at once: still only the last image (by the order the loads
    /// were registered) ends up shown, and displays never overlap.
    @Test func reuseFromManyThreadsNeverOverlapsDisplays() async throws {
        let (server, pipeline) = try await setUp()
        let target = TestTarget()
        let completions = Collected<Bool>()
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            pipeline.loadImage(
                with: server.url(i % 2 == 0 ? "/images/a.jpg" : "/status/404"),
                options: ImageLoadingOptions(placeholder: placeholder, failureImage: failure),
                into: target
            ) { _ in completions.append(true) }
        }
        let last = pipeline.loadImage(with: server.imageURL("a.jpg"), into: target) { _ in completions.append(true) }
        #expect(last != nil || target.widths.last == 64)
        #expect(await eventually { completions.count == 201 })
        #expect(await eventually { target.widths.last == 64 })
        #expect(target.maxConcurrentDisplays == 1)
    }

    @Test func releasedTargetCancelsItsLoad() async throws {
        let (server, pipeline) = try await setUp()
        var target: TestTarget? = TestTarget()
        let weak = WeakTarget(target: target)
        let task = try #require(pipeline.loadImage(with: server.url("/slow/3000/a.jpg"), into: target!))
        #expect(await eventually { server.requestCount(for: "/slow/3000/a.jpg") == 1 })
        target = nil
        #expect(weak.target == nil)
        #expect(await eventually { task.isCancelled })
        #expect(await eventually { pipeline.activeTaskCount == 0 })
    }

    @Test func cancelRequestStopsTheLoadAndShowsNothingMore() async throws {
        let (server, pipeline) = try await setUp()
        let target = TestTarget()
        let result = Collected<Bool>()
        let task = try #require(
            pipeline.loadImage(
                with: server.url("/slow/300/a.jpg"),
                options: ImageLoadingOptions(placeholder: placeholder), into: target
            ) {
                result.append((try? $0.get()) != nil)
            })
        pipeline.cancelRequest(for: target)
        #expect(task.isCancelled)
        #expect(await eventually { result.count == 1 })
        try await Task.sleep(for: .milliseconds(500))
        #expect(result.all == [false] && target.widths == [2])
    }

    @Test func transitionGetsTheOldAndNewImage() async throws {
        let (server, pipeline) = try await setUp()
        let target = TestTarget()
        let transitions = Collected<(Int?, Int)>()
        let options = ImageLoadingOptions(
            placeholder: placeholder,
            transition: { target, old, new in
                transitions.append((old?.width, new.width))
                target.display(new, isPreview: false)
            })
        let done = Collected<Bool>()
        pipeline.loadImage(with: server.imageURL("a.jpg"), options: options, into: target) { _ in done.append(true) }
        #expect(await eventually { done.count == 1 })
        #expect(transitions.all.map(\.0) == [2] && transitions.all.map(\.1) == [64])
        #expect(target.widths == [2, 64])
    }

    @Test func previewsThenTheFinalImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 512, height: 384, progressive: true), at: "p.jpg")
        let (pipeline, _) = makeRealPipeline { $0.isProgressiveDecodingEnabled = true }
        let url = server.url("/drip/p.jpg?chunk=2048&interval=15")

        let target = TestTarget()
        let done = Collected<Bool>()
        pipeline.loadImage(with: url, into: target) { _ in done.append(true) }
        #expect(await eventually { done.count == 1 })
        let shown = target.shown
        #expect(shown.first == .init(width: nil, isPreview: false))
        #expect(shown.dropFirst().dropLast().count >= 1 && shown.dropFirst().dropLast().allSatisfy { $0.isPreview })
        #expect(shown.last == .init(width: 512, isPreview: false))

        let quiet = TestTarget()
        let quietDone = Collected<Bool>()
        pipeline.loadImage(
            with: ImageRequest(url: url, options: [.reloadIgnoringCachedData]),
            options: ImageLoadingOptions(showsPreviews: false), into: quiet
        ) { _ in quietDone.append(true) }
        #expect(await eventually { quietDone.count == 1 })
        #expect(quiet.shown == [.init(width: nil, isPreview: false), .init(width: 512, isPreview: false)])
    }
}
