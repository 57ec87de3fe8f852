import Foundation
import Testing
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A load that simply completes never has its token's source cancelled. The shim's own
/// cancellation handlers capture the work, which holds the token, which holds the source: unless
/// they are withdrawn when the work ends, every completed load stays alive in a cycle.
@Suite("TokenLifetimeTests", .timeLimit(.minutes(10)))
struct TokenLifetimeTests {
    @Test func operationQueueSchedulerLetsGoOfAnUncancelledSourceOnceItsWorkFinishes() async {
        let scheduler = OperationQueueScheduler(maxConcurrentOperationCount: 1)
        let finished = Recorder<Int>()
        weak var weakSource: CancellationTokenSource?
        do {
            let source = CancellationTokenSource()
            weakSource = source
            scheduler.execute(token: source.token) { finish in
                finished.append(1)
                finish()
            }
        }
        #expect(await eventually { finished.count == 1 })
        #expect(await eventually { weakSource == nil })
    }

    @Test func dataLoaderLetsGoOfAnUncancelledSourceOnceTheLoadCompletes() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let loader = DataLoader()
        weak var weakSource: CancellationTokenSource?
        do {
            let source = CancellationTokenSource()
            weakSource = source
            let result = await resolution(
                of: loader.loadData(with: URLRequest(url: server.imageURL("a.png")), token: source.token))
            #expect(result?.value?.0 == TestImages.png())
        }
        #expect(await eventually { weakSource == nil })
    }

    @Test func deduplicatorLetsGoOfTheSharedLoadOnceItResolvesWhileTheCallerKeepsItsSource() async {
        let deduplicator = Deduplicator(loader: MockImageLoader())
        let source = CancellationTokenSource()
        weak var weakPromise: Promise<Image>?
        do {
            let promise = deduplicator.loadImage(
                with: Request(url: URL(string: "http://example.com/a.png")!), token: source.token)
            weakPromise = promise
            #expect(await resolution(of: promise)?.value != nil)
        }
        #expect(await eventually { weakPromise == nil })
        withExtendedLifetime(source) {}
    }

    @Test func loaderLetsGoOfAnUncancelledSourceAfterDecodingAndProcessing() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let loader = makeLoader()
        weak var weakSource: CancellationTokenSource?
        do {
            let source = CancellationTokenSource()
            weakSource = source
            let result = await resolution(
                of: loader.loadImage(with: Request(url: server.imageURL("a.png")), token: source.token))
            #expect(result?.value != nil)
        }
        #expect(await eventually { weakSource == nil })
    }
}
