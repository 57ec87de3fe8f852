import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// Retries through the real loopback servers, with a test sleeper in place of the clock.
@Suite("Retries end to end", .timeLimit(.minutes(10)))
struct RetryEndToEndTests {
    /// Answers `path` with `failures` (status and headers) in turn, then with a PNG.
    private func serveFailures(_ failures: [(Int, [HTTPHeader: String])], at path: String, on server: TestServer) {
        let served = Locked(0)
        let image = TestImages.png(width: 12, height: 10)
        server.handle(path) { _ in
            let index = served.withLock { count -> Int in
                defer { count += 1 }
                return count
            }
            guard index < failures.count else {
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png"], body: image)
            }
            let (status, headers) = failures[index]
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: "Test"), headers: HTTPHeaders(headers), body: Data())
        }
    }

    @Test func tenCoalescedTasksShareOneRetrySequenceThrough503s() async throws {
        let server = try await TestServer.start()
        serveFailures([(503, [:]), (503, [:])], at: "/flaky", on: server)
        let sleeper = TestSleeper(holding: true)
        let (pipeline, _) = makeRealPipeline { $0.retryPolicy = sleeper.policy(attempts: 3) }
        let tasks = (0..<10).map { _ in pipeline.imageTask(with: ImageRequest(url: server.url("/flaky"))) }
        #expect(await eventually { sleeper.waitingCount == 1 })
        #expect(pipeline.activeJobCount > 0)  // every task has joined the graph behind the wait
        sleeper.release()
        for task in tasks { #expect(try await task.image.width == 12) }
        #expect(server.requestCount(for: "/flaky") == 3)
        #expect(sleeper.delays == [.milliseconds(100), .milliseconds(200)])
        #expect(pipeline.metrics.retries == 2)
        #expect(pipeline.metrics.downloadsStarted == 3)
    }

    @Test func tooManyRequestsWaitsForItsRetryAfter() async throws {
        let server = try await TestServer.start()
        serveFailures([(429, [HTTPHeader("Retry-After"): "7"])], at: "/limited", on: server)
        let sleeper = TestSleeper()
        let (pipeline, _) = makeRealPipeline { $0.retryPolicy = sleeper.policy(jitter: 0.5) }
        #expect(try await pipeline.image(for: server.url("/limited")).width == 12)
        #expect(sleeper.delays == [.seconds(7)])
        #expect(server.requestCount(for: "/limited") == 2)
    }

    @Test func retryAfterBeyondThePolicysMaximumFailsWithTheStatus() async throws {
        let server = try await TestServer.start()
        serveFailures([(503, [HTTPHeader("Retry-After"): "3600"])], at: "/down", on: server)
        let sleeper = TestSleeper()
        let (pipeline, _) = makeRealPipeline { $0.retryPolicy = sleeper.policy() }
        await #expect { _ = try await pipeline.image(for: server.url("/down")) } throws: { error in
            (error as? ImagePipeline.Error)?.statusCode == 503
        }
        #expect(sleeper.delays.isEmpty)
        #expect(server.requestCount(for: "/down") == 1)
    }

    @Test func notFoundIsNeverRetried() async throws {
        let server = try await TestServer.start()
        let sleeper = TestSleeper()
        let (pipeline, _) = makeRealPipeline { $0.retryPolicy = sleeper.policy() }
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: server.url("/status/404")) }
        #expect(server.requestCount(for: "/status/404") == 1)
        #expect(sleeper.delays.isEmpty)
    }

    @Test func aResetConnectionIsRetried() async throws {
        let faults = try FaultServer(image: TestImages.png(width: 9, height: 7))
        let sleeper = TestSleeper()
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.retryPolicy = sleeper.policy() }
        #expect(try await pipeline.image(for: faults.url("/reset-once")).width == 9)
        #expect(faults.requestCount(for: "/reset-once") == 2)
        #expect(sleeper.delays.count == 1)
        dataCache?.flush()
        #expect(dataCache?.totalCount == 1)  // the whole second body, never the cut first one
    }

    @Test func aTimeoutIsRetried() async throws {
        let server = try await TestServer.start()
        let attempts = Locked(0)
        let image = TestImages.png(width: 5, height: 5)
        server.handle("/sluggish") { _ in
            if attempts.withLock({ count -> Int in
                count += 1; return count
            }) == 1 {
                try await Task.sleep(for: .seconds(60))
            }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/png"], body: image)
        }
        var loader = DataLoader.Configuration()
        // The first attempt would be answered after 60 s; the others at once, but on a loaded run
        // the server's handler may wait long for a cooperative thread: 10 s leaves them room.
        loader.timeoutForRequest = 10
        let sleeper = TestSleeper()
        // Attempts after the first answer at once, but a loaded machine may still time one out.
        let (pipeline, _) = makeRealPipeline(loader: loader) { $0.retryPolicy = sleeper.policy(attempts: 5) }
        #expect(try await pipeline.image(for: server.url("/sluggish")).width == 5)
        let made = attempts.withLock { $0 }
        #expect(made >= 2)
        #expect(sleeper.delays.count == made - 1)
    }

    @Test func cancellingDuringTheWaitEndsItAtOnce() async throws {
        let server = try await TestServer.start()
        serveFailures([(503, [:])], at: "/flaky", on: server)
        let sleeper = TestSleeper(holding: true)
        let (pipeline, _) = makeRealPipeline { $0.retryPolicy = sleeper.policy() }
        let task = pipeline.imageTask(with: ImageRequest(url: server.url("/flaky")))
        #expect(await eventually { sleeper.waitingCount == 1 })
        task.cancel()
        #expect(await eventually { sleeper.cancellations == 1 && sleeper.waitingCount == 0 })
        #expect(await eventually { pipeline.activeJobCount == 0 })
        #expect(server.requestCount(for: "/flaky") == 1)
    }

    @Test func theWaitHoldsNoDownloadSlot() async throws {
        let server = try await TestServer.start()
        serveFailures([(503, [:])], at: "/flaky", on: server)
        server.serve(TestImages.png(width: 3, height: 3), at: "other.png")
        let sleeper = TestSleeper(holding: true)
        let (pipeline, _) = makeRealPipeline {
            $0.retryPolicy = sleeper.policy()
            $0.dataLoadingConcurrencyLimit = 1
        }
        let waiting = pipeline.imageTask(with: ImageRequest(url: server.url("/flaky")))
        #expect(await eventually { sleeper.waitingCount == 1 })
        #expect(try await pipeline.image(for: server.imageURL("other.png")).width == 3)
        sleeper.release()
        #expect(try await waiting.image.width == 12)
    }

    @Test func aRequestsOwnPolicyOverridesThePipelines() async throws {
        let server = try await TestServer.start()
        serveFailures([(502, [:])], at: "/flaky", on: server)
        let sleeper = TestSleeper()
        let (pipeline, _) = makeRealPipeline()  // retries disabled
        var request = ImageRequest(url: server.url("/flaky"))
        request.retryPolicy = sleeper.policy()
        #expect(try await pipeline.image(for: request).width == 12)
        #expect(sleeper.delays.count == 1)
    }

    @Test func withoutAPolicyAFailureFailsAtOnce() async throws {
        let server = try await TestServer.start()
        serveFailures([(503, [:])], at: "/flaky", on: server)
        let (pipeline, _) = makeRealPipeline()
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: server.url("/flaky")) }
        #expect(server.requestCount(for: "/flaky") == 1)
        #expect(pipeline.metrics.retries == 0)
    }
}
