import Foundation
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// ``ImagePipeline/Hooks/taskEvent``, ``ImageTask/state`` and the task's async sequences,
/// through the real loopback server.
@Suite("Task events and state end to end", .timeLimit(.minutes(10)))
struct TaskEventsEndToEndTests {
    /// Records each task's events by name, in the order the hook saw them.
    final class EventLog: Sendable {
        private let names = Locked<[Int64: [String]]>([:])

        func record(_ task: ImageTask, _ event: ImagePipeline.TaskEvent) {
            let name =
                switch event {
                case .created: "created"
                case .started: "started"
                case .progress: "progress"
                case .preview: "preview"
                case .cancelled: "cancelled"
                case .finished(.success): "finished"
                case .finished(.failure): "failed"
                }
            names.withLock { $0[task.taskId, default: []].append(name) }
        }

        /// The events of `task`, with runs of progress and preview collapsed to one entry.
        func events(of task: ImageTask) -> [String] {
            names.withLock { $0[task.taskId] ?? [] }.reduce(into: []) { result, name in
                if result.last != name || !["progress", "preview"].contains(name) { result.append(name) }
            }
        }

        func hasEnded(_ task: ImageTask) -> Bool {
            names.withLock { ($0[task.taskId] ?? []).contains { $0 == "finished" || $0 == "failed" } }
        }
    }

    @Test func aLoadReportsCreatedStartedProgressFinishedInOrder() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 64, height: 64), at: "a.png")
        let log = EventLog()
        let (pipeline, _) = makeRealPipeline { $0.hooks.taskEvent = log.record }
        let task = pipeline.imageTask(with: server.url("/drip/a.png?chunk=1024&interval=5"))
        _ = try await task.image
        #expect(await eventually { log.hasEnded(task) })
        #expect(log.events(of: task) == ["created", "started", "progress", "finished"])
    }

    @Test func aCancelledTaskReportsCancelledThenItsEnd() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let log = EventLog()
        let (pipeline, _) = makeRealPipeline { $0.hooks.taskEvent = log.record }
        let task = pipeline.imageTask(with: server.url("/slow/10000/a.png"))
        #expect(await eventually { log.events(of: task) == ["created", "started"] })
        task.cancel()
        #expect(await eventually { log.hasEnded(task) })
        #expect(log.events(of: task) == ["created", "started", "cancelled", "failed"])
        #expect(task.state == .cancelled)
    }

    @Test func aMemoryCacheHitIsCreatedAndFinishedWithoutStarting() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let log = EventLog()
        let (pipeline, _) = makeRealPipeline { $0.hooks.taskEvent = log.record }
        _ = try await pipeline.image(for: server.imageURL("a.png"))
        let hit = pipeline.imageTask(with: server.imageURL("a.png"))
        #expect(await eventually { log.hasEnded(hit) })
        #expect(log.events(of: hit) == ["created", "finished"])
    }

    @Test func progressivePreviewsArriveBetweenStartAndFinish() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 512, height: 384, progressive: true), at: "p.jpg")
        let log = EventLog()
        let (pipeline, _) = makeRealPipeline {
            $0.isProgressiveDecodingEnabled = true
            $0.hooks.taskEvent = log.record
        }
        let task = pipeline.imageTask(with: server.url("/drip/p.jpg?chunk=2048&interval=15"))
        _ = try await task.image
        #expect(await eventually { log.hasEnded(task) })
        let events = log.events(of: task)
        #expect(events.first == "created" && events.dropFirst().first == "started" && events.last == "finished")
        #expect(events.contains("preview"))
    }

    @Test func stateGoesFromRunningToCompleted() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let (pipeline, _) = makeRealPipeline()
        let task = pipeline.imageTask(with: server.url("/slow/300/a.png"))
        #expect(task.state == .running)
        _ = try await task.response
        #expect(task.state == .completed)
    }

    @Test func aFailedTaskIsCompletedNotCancelled() async throws {
        let server = try await TestServer.start()
        let (pipeline, _) = makeRealPipeline()
        let task = pipeline.imageTask(with: server.url("/status/404"))
        _ = try? await task.response
        #expect(task.state == .completed)
    }

    @Test func previewsSequenceYieldsPreviewsAndEndsWithTheTask() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 512, height: 384, progressive: true), at: "p.jpg")
        let (pipeline, _) = makeRealPipeline { $0.isProgressiveDecodingEnabled = true }
        let task = pipeline.imageTask(with: server.url("/drip/p.jpg?chunk=2048&interval=15"))
        var previews: [ImageResponse] = []
        for await preview in task.previews { previews.append(preview) }
        #expect(!previews.isEmpty)
        #expect(previews.allSatisfy { $0.isPreview })
        #expect(task.state == .completed)
    }

    @Test func progressUpdatesGrowToTheTotal() async throws {
        let server = try await TestServer.start()
        let data = TestImages.png(width: 64, height: 64)
        server.serve(data, at: "a.png")
        let (pipeline, _) = makeRealPipeline()
        let task = pipeline.imageTask(with: server.url("/drip/a.png?chunk=512&interval=5"))
        var updates: [ImageTask.Progress] = []
        for await update in task.progressUpdates { updates.append(update) }
        #expect(!updates.isEmpty)
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(updates.last?.completed == Int64(data.count))
    }

    @Test func urlConveniencesLoadTheImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 7, height: 5), at: "a.png")
        let (pipeline, _) = makeRealPipeline { $0.imageCache = nil }
        let url = server.imageURL("a.png")
        #expect(try await pipeline.imageTask(with: url).image.width == 7)
        #expect(try await pipeline.image(for: url).width == 7)
        let result = await withCheckedContinuation { continuation in
            pipeline.loadImage(with: url) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().image.width == 7)
    }
}
