import Foundation
import Testing
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("DeduplicatorTests", .timeLimit(.minutes(10)))
struct DeduplicatorTests {
    @Test func equivalentRequestsShareOneTask() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let deduplicator = Deduplicator(loader: makeLoader(cache: nil))
        let url = server.url("/slow/300/a.png")
        let first = deduplicator.loadImage(with: Request(url: url), token: nil)
        let second = deduplicator.loadImage(with: Request(url: url), token: nil)
        #expect(first === second)
        #expect(await resolution(of: first)?.value != nil)
        #expect(await resolution(of: second)?.value != nil)
        #expect(server.requestCount(for: "/slow/300/a.png") == 1)
    }

    @Test func differentCachePolicyMakesTwoTasks() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let deduplicator = Deduplicator(loader: makeLoader(cache: nil))
        let url = server.url("/slow/300/a.png")
        let first = deduplicator.loadImage(with: Request(url: url), token: nil)
        let second = deduplicator.loadImage(
            with: Request(urlRequest: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)), token: nil)
        #expect(await resolution(of: first)?.value != nil)
        #expect(await resolution(of: second)?.value != nil)
        #expect(server.requestCount(for: "/slow/300/a.png") == 2)
    }

    @Test func oneCallerCancellingDoesNotCancelTheOther() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let deduplicator = Deduplicator(loader: makeLoader(cache: nil))
        let url = server.url("/slow/300/a.png")
        let cancelled = CancellationTokenSource()
        let kept = CancellationTokenSource()
        let first = deduplicator.loadImage(with: Request(url: url), token: cancelled.token)
        let second = deduplicator.loadImage(with: Request(url: url), token: kept.token)
        cancelled.cancel()
        let delivered = Recorder<Bool>()
        first.then { _ in delivered.append(true) }
        #expect(await resolution(of: second)?.value != nil)
        #expect(await eventually { delivered.count == 1 }, "the caller that cancelled still gets the shared callbacks")
    }

    @Test func lastCallerCancellingCancelsTheLoad() async throws {
        let loader = MockImageLoader(holdsLoads: true)
        let deduplicator = Deduplicator(loader: loader)
        let url = URL(string: "http://example.com/a.jpg")!
        let first = CancellationTokenSource()
        let second = CancellationTokenSource()
        _ = deduplicator.loadImage(with: Request(url: url), token: first.token)
        _ = deduplicator.loadImage(with: Request(url: url), token: second.token)
        #expect(loader.calls.count == 1)
        first.cancel()
        #expect(loader.calls[0].token?.isCancelling == false)
        second.cancel()
        #expect(loader.calls[0].token?.isCancelling == true)
        _ = deduplicator.loadImage(with: Request(url: url), token: nil)
        #expect(loader.calls.count == 2, "a cancelled load is not shared with later callers")
    }
}
