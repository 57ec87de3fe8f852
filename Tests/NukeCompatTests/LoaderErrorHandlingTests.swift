import Foundation
import Testing
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("LoaderErrorHandlingTests", .timeLimit(.minutes(10)))
struct LoaderErrorHandlingTests {
    @Test func dataLoaderErrorPassesThroughUnchanged() async throws {
        let loader = Loader(loader: FailingDataLoader(error: TestError(code: 7)), decoder: DataDecoder(), cache: nil)
        let result = await resolution(of: loader.loadImage(with: URL(string: "http://example.com/a.jpg")!))
        #expect((result?.error as? TestError) == TestError(code: 7))
    }

    @Test func networkErrorPassesThroughUnchanged() async throws {
        let faults = try FaultServer()
        let result = await resolution(of: makeLoader().loadImage(with: faults.url("/reset")))
        #expect(result?.error is URLError, "got \(String(describing: result))")
    }

    @Test func failingDecoderEndsAsDecodingFailed() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let loader = Loader(loader: DataLoader(), decoder: RefusingDecoder(), cache: nil)
        let result = await resolution(of: loader.loadImage(with: server.imageURL("a.png")))
        #expect(result?.error as? Loader.Error == .decodingFailed)
    }

    @Test func undecodableBytesEndAsDecodingFailed() async throws {
        let server = try await TestServer.start()
        server.serve(Data("not an image".utf8), at: "text.png")
        let result = await resolution(of: makeLoader().loadImage(with: server.imageURL("text.png")))
        #expect(result?.error as? Loader.Error == .decodingFailed)
    }

    @Test func httpErrorStatusEndsAsDecodingFailed() async throws {
        let server = try await TestServer.start()
        let result = await resolution(of: makeLoader().loadImage(with: server.url("/status/404")))
        #expect(result?.error as? Loader.Error == .decodingFailed)
    }

    @Test func nilProcessorEndsAsProcessingFailed() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let request = Request(url: server.imageURL("a.png")).processed(with: FailingProcessor())
        let result = await resolution(of: makeLoader().loadImage(with: request))
        #expect(result?.error as? Loader.Error == .processingFailed)
    }
}

@Suite("LoaderTests", .timeLimit(.minutes(10)))
struct LoaderTests {
    @Test func loadsAndDecodesThroughTheServer() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 40, height: 30), at: "a.jpg")
        let image = await resolution(of: makeLoader().loadImage(with: server.imageURL("a.jpg")))?.value
        #expect(image?.width == 40 && image?.height == 30)
    }

    @Test func memoryHitIsAnAlreadyFulfilledPromise() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let loader = makeLoader()
        let request = Request(url: server.imageURL("a.png"))
        _ = await resolution(of: loader.loadImage(with: request))
        let hit = loader.loadImage(with: request)
        #expect(hit.resolution?.value != nil)
        #expect(server.requestCount(for: "/images/a.png") == 1)
    }

    @Test func readAllowedFalseSkipsTheMemoryCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let loader = makeLoader()
        var request = Request(url: server.imageURL("a.png"))
        _ = await resolution(of: loader.loadImage(with: request))
        request.memoryCacheOptions.readAllowed = false
        #expect(await resolution(of: loader.loadImage(with: request))?.value != nil)
        #expect(server.requestCount(for: "/images/a.png") == 2)
    }

    @Test func writeAllowedFalseLeavesTheMemoryCacheAlone() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let cache = Cache()
        var request = Request(url: server.imageURL("a.png"))
        request.memoryCacheOptions.writeAllowed = false
        #expect(await resolution(of: makeLoader(cache: cache).loadImage(with: request))?.value != nil)
        #expect(cache.totalCount == 0)
    }

    @Test func cancellingDuringTheDownloadRejectsWithURLErrorCancelled() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let source = CancellationTokenSource()
        let promise = makeLoader().loadImage(with: server.url("/slow/5000/a.png"), token: source.token)
        #expect(await eventually { server.requestCount(for: "/slow/5000/a.png") == 1 })
        source.cancel()
        let error = await resolution(of: promise)?.error as? URLError
        #expect(error?.code == .cancelled)
    }

    @Test func cancelledBeforeTheWorkStartsStaysPending() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let source = CancellationTokenSource()
        source.cancel()
        let promise = makeLoader().loadImage(with: server.imageURL("a.png"), token: source.token)
        await pause(milliseconds: 300)
        #expect(promise.isPending)
        #expect(server.requestCount(for: "/images/a.png") == 0)
    }

    @Test func makeProcessorChoosesTheProcessor() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 10, height: 10), at: "a.png")
        let loader = makeLoader()
        loader.makeProcessor = { _, _ in AnyProcessor(Widen(columns: 5)) }
        let image = await resolution(of: loader.loadImage(with: server.imageURL("a.png")))?.value
        #expect(image?.width == 15)
    }
}
