import CometServer
import Foundation
import Testing

/// Past the work and queue bounds the service answers 503 at once; admitted work finishes.
@Suite("Overload", .timeLimit(.minutes(10)))
struct LoadSheddingTests {
    let client = HTTPClient()

    @Test func overloadGets503WithRetryAfterWhileAdmittedRequestsFinish() async throws {
        try await withOriginAndServer({ configuration, _ in
            configuration.maximumConcurrentWork = 1
            configuration.maximumQueuedWork = 1
            configuration.retryAfterSeconds = 2
        }) { origin, server in
            // Two different results (no coalescing): one runs, one waits.
            let admitted = (0..<2).map { index in
                Task { try await client.get(server.url("rs:fit:\(20 + index):20", origin.url("/slow/4000/photo.jpg"))) }
            }
            while server.responder.shedder.load.active + server.responder.shedder.load.queued < 2 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let refused = try await client.get(server.url("rs:fit:99:20", origin.url("/slow/4000/photo.jpg")))
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "2")
            #expect(refused.errorCode == "overloaded")
            // The refusal did not wait for a slot: the admitted work (4 s at the origin) is still running.
            #expect(server.responder.shedder.load.active + server.responder.shedder.load.queued == 2)
            for task in admitted { #expect(try await task.value.status == 200) }
        }
    }
}
