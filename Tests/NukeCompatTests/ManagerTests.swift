import Foundation
import Testing
import NukeCompat
import CometTestSupport

/// A target that records what it was handed.
// Safe: `responses` is only touched under `lock`.
final class RecordingTarget: Target, @unchecked Sendable {
    private let lock = NSLock()
    private var responses: [(Response, Bool)] = []

    func handle(response: Response, isFromMemoryCache: Bool) {
        lock.lock()
        responses.append((response, isFromMemoryCache))
        lock.unlock()
    }

    var handled: [(Response, Bool)] {
        lock.lock()
        defer { lock.unlock() }
        return responses
    }
}

@Suite("ManagerTests", .timeLimit(.minutes(10)))
struct ManagerTests {
    @Test func loadsTheImageWithIsFromMemoryCacheFalse() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 12, height: 8), at: "a.png")
        let cache = Cache()
        let manager = Manager(loader: makeLoader(cache: cache), cache: cache)
        let target = RecordingTarget()
        manager.loadImage(with: server.imageURL("a.png"), into: target)
        #expect(await eventually { target.handled.count == 1 })
        #expect(target.handled.first?.0.value?.width == 12)
        #expect(target.handled.first?.1 == false)
    }

    @Test func memoryHitCallsTheHandlerSynchronously() async throws {
        let cache = Cache()
        let request = Request(url: URL(string: "http://example.com/a.jpg")!)
        cache[request] = TestImages.image(width: 3, height: 3)
        let manager = Manager(loader: MockImageLoader(holdsLoads: true), cache: cache)
        let calls = Recorder<Bool>()
        manager.loadImage(with: request, into: RecordingTarget()) { response, isFromMemoryCache in
            calls.append(isFromMemoryCache && response.value?.width == 3)
        }
        #expect(calls.all == [true])
    }

    @Test func loadingASecondRequestCancelsTheFirstWhoseHandlerNeverRuns() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 5, height: 5), at: "slow.png")
        server.serve(TestImages.png(width: 7, height: 7), at: "fast.png")
        let loader = ObservedImageLoader(base: makeLoader(cache: nil))
        let manager = Manager(loader: loader)
        let target = RecordingTarget()
        let firstHandler = Recorder<Bool>()
        manager.loadImage(with: server.url("/slow/10000/slow.png"), into: target) { _, _ in firstHandler.append(true) }
        // Once the first download is under way, its cancellation rejects its promise (Nuke 4).
        #expect(await eventually { server.requestCount(for: "/slow/10000/slow.png") == 1 })
        manager.loadImage(with: server.imageURL("fast.png"), into: target)
        #expect(loader.calls.first?.token?.isCancelling == true, "the first load is cancelled")
        #expect(await eventually { target.handled.count == 1 && loader.resolved == 2 })
        await drainCallbackQueue()
        #expect(firstHandler.count == 0)
        #expect(target.handled.map { $0.0.value?.width } == [7])
    }

    @Test func cancelRequestCancelsAndTheHandlerNeverRuns() async throws {
        let loader = ObservedImageLoader()  // holds the load, then delivers an image anyway
        let manager = Manager(loader: loader)
        let target = RecordingTarget()
        manager.loadImage(with: URL(string: "http://example.com/a.jpg")!, into: target)
        manager.cancelRequest(for: target)
        #expect(loader.calls.first?.token?.isCancelling == true)
        loader.release()
        #expect(await eventually { loader.resolved == 1 })
        await drainCallbackQueue()
        #expect(target.handled.isEmpty)
    }

    @Test func releasingTheTargetCancelsItsLoad() async throws {
        let loader = MockImageLoader(holdsLoads: true)
        let manager = Manager(loader: loader)
        var target: RecordingTarget? = RecordingTarget()
        manager.loadImage(with: URL(string: "http://example.com/a.jpg")!, into: target!)
        #expect(loader.calls.first?.token?.isCancelling == false)
        target = nil
        #expect(await eventually { loader.calls.first?.token?.isCancelling == true })
    }

    @Test func failureReachesTheTarget() async throws {
        let server = try await TestServer.start()
        let manager = Manager(loader: makeLoader(cache: nil))
        let target = RecordingTarget()
        manager.loadImage(with: server.url("/status/500"), into: target)
        #expect(await eventually { target.handled.count == 1 })
        #expect(target.handled.first?.0.error as? Loader.Error == .decodingFailed)
    }
}
