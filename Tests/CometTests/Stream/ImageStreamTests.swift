import Dispatch
import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("ImageStream through the real server", .timeLimit(.minutes(10)))
struct ImageStreamTests {
    typealias Recorder = StreamRecorder<ImageResponse, ImagePipeline.Error>

    @Test func loadsTheImageThenFinishesOnTheCallbackQueue() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 80, height: 60), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline { $0.callbackQueue = QueueLabel.queue("callbacks") }
        let recorder = Recorder()
        pipeline.imageStream(with: server.imageURL("a.jpg")).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.map(\.image.width) == [80])
        #expect(recorder.values.first?.isPreview == false && recorder.values.first?.cacheType == nil)
        #expect(recorder.isFinished)
        #expect(recorder.queueLabels == ["callbacks", "callbacks"])
    }

    @Test func nothingLoadsUntilDemand() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        let recorder = Recorder(initialDemand: .none)
        pipeline.imageStream(with: server.imageURL("a.jpg")).subscribe(recorder)
        try await Task.sleep(for: .milliseconds(200))
        #expect(server.requestCount(for: "/images/a.jpg") == 0 && recorder.events.isEmpty)
        recorder.subscription?.request(.max(1))
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.count == 1 && recorder.isFinished)
    }

    @Test func memoryHitIsDeliveredSynchronouslyInsideSubscribe() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        let request = ImageRequest(url: server.imageURL("a.jpg"), processors: [.resize(width: 32)])
        _ = try await pipeline.image(for: request)
        let recorder = Recorder()
        pipeline.imageStream(with: request).subscribe(recorder)
        // No waiting: both events are already there.
        #expect(recorder.values.count == 1 && recorder.isFinished)
        #expect(recorder.values.first?.cacheType == .memory && recorder.values.first?.image.width == 32)
        #expect(recorder.queueLabels == [nil, nil])  // the test's thread, not the callback queue
        #expect(server.requestCount(for: "/images/a.jpg") == 1)

        // With `sink` too, and a request that skips memory reads does load.
        let values = Collected<ImageResponse>()
        let cancellable = pipeline.imageStream(with: request)
            .sink(receiveCompletion: { _ in values.finish() }, receiveValue: { values.append($0) })
        #expect(values.count == 1 && values.isDone)
        cancellable.cancel()
        var reload = request
        reload.options.insert(.reloadIgnoringCachedData)
        let reloaded = Recorder()
        pipeline.imageStream(with: reload).subscribe(reloaded)
        #expect(reloaded.events.isEmpty)
        #expect(await reloaded.waitForCompletion())
        #expect(reloaded.values.first?.cacheType == nil && server.requestCount(for: "/images/a.jpg") == 2)
    }

    @Test func memoryHitWaitsForDemand() async throws {
        let (pipeline, _) = makeRealPipeline()
        let request = ImageRequest(url: URL(string: "http://127.0.0.1:9/never.jpg")!)
        pipeline.cache[request] = CachedImage(image: TestImages.image())
        let recorder = Recorder(initialDemand: .none)
        pipeline.imageStream(with: request).subscribe(recorder)
        #expect(recorder.events.isEmpty)
        recorder.subscription?.request(.max(1))
        #expect(recorder.values.count == 1 && recorder.isFinished)
    }

    @Test func failureArrivesAsTheCompletion() async throws {
        let server = try await TestServer.start()
        let (pipeline, _) = makeRealPipeline()
        let recorder = Recorder(initialDemand: .max(1))
        pipeline.imageStream(with: server.url("/status/404")).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.isEmpty)
        #expect(recorder.failure?.statusCode == 404)
    }

    @Test func cancelCancelsTheTaskAndNothingArrivesAfterwards() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        let recorder = Recorder()
        pipeline.imageStream(with: server.url("/slow/400/a.jpg")).subscribe(recorder)
        #expect(await eventually { server.requestCount(for: "/slow/400/a.jpg") == 1 })
        recorder.subscription?.cancel()
        #expect(await eventually { pipeline.activeTaskCount == 0 })
        try await Task.sleep(for: .milliseconds(700))
        #expect(recorder.events.isEmpty)
        #expect(pipeline.activeJobCount == 0)
    }

    @Test func cancellingOneSubscriberLeavesCoalescedWorkToTheOther() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        let stream = pipeline.imageStream(with: server.url("/slow/300/a.jpg"))
        let cancelled = Recorder()
        let kept = Recorder()
        stream.subscribe(cancelled)
        stream.subscribe(kept)
        #expect(await eventually { server.requestCount(for: "/slow/300/a.jpg") == 1 })
        cancelled.subscription?.cancel()
        #expect(await kept.waitForCompletion())
        #expect(kept.values.count == 1 && kept.isFinished)
        #expect(cancelled.events.isEmpty)
        #expect(server.requestCount(for: "/slow/300/a.jpg") == 1)
    }

    @Test func receiveOnMovesDelivery() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        let recorder = Recorder()
        pipeline.imageStream(with: server.imageURL("a.jpg")).receive(on: QueueLabel.queue("ui")).subscribe(recorder)
        #expect(await recorder.waitForCompletion())
        #expect(recorder.values.count == 1)
        #expect(recorder.queueLabels == ["ui", "ui"])
    }

    @Test func valuesAsyncBridge() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 40, height: 30), at: "a.jpg")
        let (pipeline, _) = makeRealPipeline()
        var widths: [Int] = []
        for try await response in pipeline.imageStream(with: server.imageURL("a.jpg")).values {
            widths.append(response.image.width)
        }
        #expect(widths == [40])
    }
}
