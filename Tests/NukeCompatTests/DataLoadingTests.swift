import Foundation
import Testing
import NukeCompat
import Imaging
import CometTestSupport
import FlyingFox
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("DataLoadingTests", .timeLimit(.minutes(10)))
struct DataLoadingTests {
    @Test func dataLoaderDeliversTheBodyAndResponse() async throws {
        let server = try await TestServer.start()
        let png = TestImages.png()
        server.serve(png, at: "a.png")
        let result = await resolution(
            of: DataLoader().loadData(with: URLRequest(url: server.imageURL("a.png")), token: nil))
        #expect(result?.value?.0 == png)
        #expect((result?.value?.1 as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func dataLoaderFulfilsHTTPErrorsWithTheirStatus() async throws {
        let server = try await TestServer.start()
        let result = await resolution(
            of: DataLoader().loadData(with: URLRequest(url: server.url("/status/404")), token: nil))
        #expect((result?.value?.1 as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func dataLoaderSendsTheConfigurationsAdditionalHeaders() async throws {
        let server = try await TestServer.start()
        server.handle("/echo") { request in
            HTTPResponse(statusCode: .ok, body: Data((request.headers[HTTPHeader("X-Client")] ?? "none").utf8))
        }
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-Client": "nuke-compat"]
        let result = await resolution(
            of: DataLoader(configuration: configuration).loadData(
                with: URLRequest(url: server.url("/echo")), token: nil))
        #expect(result?.value.map { String(decoding: $0.0, as: UTF8.self) } == "nuke-compat")
    }

    @Test func cachingDataLoaderStoresThenAnswersFromTheCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let cache = MemoryDataCache()
        let loader = CachingDataLoader(loader: DataLoader(), cache: cache)
        let request = URLRequest(url: server.imageURL("a.png"))
        #expect(await resolution(of: loader.loadData(with: request, token: nil))?.value != nil)
        #expect(await eventually { cache.count == 1 })
        let second = await resolution(of: loader.loadData(with: request, token: nil))
        #expect(second?.value?.0 == TestImages.png())
        #expect(server.requestCount(for: "/images/a.png") == 1)
    }

    @Test func decoderRefusesHTTPErrorStatus() {
        let response = HTTPURLResponse(
            url: URL(string: "http://example.com")!, statusCode: 404, httpVersion: nil, headerFields: nil)!
        #expect(DataDecoder().decode(data: TestImages.png(), response: response) == nil)
        let ok = HTTPURLResponse(
            url: URL(string: "http://example.com")!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        #expect(DataDecoder().decode(data: TestImages.png(width: 6, height: 4), response: ok)?.width == 6)
    }

    @Test func decoderDecodesWebPGIFAndAVIFThroughTheRegistry() {
        let ok = HTTPURLResponse(
            url: URL(string: "http://example.com")!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        #expect(DataDecoder().decode(data: TestImages.webp(width: 5, height: 3), response: ok)?.width == 5)
        #expect(DataDecoder().decode(data: TestImages.animatedGIF(width: 6, height: 3), response: ok)?.width == 6)
        #expect(DataDecoder().decode(data: TestImages.avif(width: 7, height: 3), response: ok)?.width == 7)
    }

    @Test func decoderUsesTheRegistryItIsGiven() {
        let ok = HTTPURLResponse(
            url: URL(string: "http://example.com")!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        var registry = ImageDecoderRegistry.default
        registry.removeDecoder(for: .webp)
        #expect(DataDecoder(decoders: registry).decode(data: TestImages.webp(), response: ok) == nil)
    }

    @Test func decoderCompositionTakesTheFirstImage() {
        let ok = HTTPURLResponse(
            url: URL(string: "http://example.com")!, statusCode: 200, httpVersion: nil, headerFields: nil)!
        let composition = DataDecoderComposition(decoders: [RefusingDecoder(), DataDecoder()])
        #expect(composition.decode(data: TestImages.jpeg(width: 8, height: 8), response: ok)?.width == 8)
        #expect(
            DataDecoderComposition(decoders: [RefusingDecoder()]).decode(data: TestImages.png(), response: ok) == nil)
    }
}

@Suite("NukeNamespaceTests", .timeLimit(.minutes(10)))
struct NukeNamespaceTests {
    @Test func typeAliasesNameTheModuleTypes() {
        #expect(Nuke.Cache.shared === Cache.shared)
        let request: Nuke.Request = Request(url: URL(string: "http://example.com/a.jpg")!)
        #expect(Request.cacheKey(for: request) == Nuke.Request.cacheKey(for: request))
    }

    @Test func cancelRequestForwardsToTheSharedManager() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "n.png")
        let target = RecordingTarget()
        let handled = Recorder<Bool>()
        Nuke.loadImage(with: server.url("/slow/200/n.png"), into: target) { _, _ in handled.append(true) }
        Nuke.cancelRequest(for: target)
        await pause(milliseconds: 600)
        #expect(handled.count == 0)
    }
}
