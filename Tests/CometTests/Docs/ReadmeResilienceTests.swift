import Comet
import CometTestSupport
import Foundation
import Locking
import Testing

/// Comet.docc/RetriesAndHooks.md, verbatim, run against the loopback server.
func readmeResilience(
    url: URL, log: @escaping @Sendable (String) -> Void,
    show: (Image) -> Void
) async throws -> Image {
    let resilient = ImagePipeline {
        $0.retryPolicy = .init(maximumAttempts: 4)  // 5xx, 429 (Retry-After), timeouts, resets
        $0.hooks.willCacheImage = { image, request in  // return nil to keep it out of the cache
            request.userInfo["private"] == nil ? image : nil
        }
        $0.hooks.taskEvent = { task, event in log("\(task.taskId): \(event)") }
    }
    let task = resilient.imageTask(with: url)
    for await preview in task.previews { show(preview.image) }  // progressive previews, then the end
    let image = try await task.image
    MemoryPressureMonitor.shared.start()  // trims memory caches under pressure
    MemoryPressureMonitor.shared.stop()
    return image
}

@Suite("The retries and hooks guide runs", .timeLimit(.minutes(10)))
struct ReadmeResilienceTests {
    @Test func theExampleLoadsAndReportsItsEvents() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 9, height: 9), at: "a.png")
        let lines = Locked<[String]>([])
        let image = try await readmeResilience(
            url: server.imageURL("a.png"), log: { line in lines.withLock { $0.append(line) } },
            show: { _ in })
        #expect(image.width == 9)
        #expect(await eventually { lines.withLock { $0.last?.contains("finished(") == true } })
        #expect(lines.withLock { $0.first?.hasSuffix(": created") } == true)
    }
}
