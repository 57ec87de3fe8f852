import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Image response serializer", .timeLimit(.minutes(10)))
struct ImageResponseSerializerTests {
    /// Requests `url` with `Alamofire.request(.GET, …).responseImage` and waits for the response.
    private func responseImage(_ url: URL) async -> Completion? {
        let recorder = Recorder<Completion>()
        Alamofire.request(.GET, url).responseImage { response in
            recorder.append(Completion(response: response, onMainThread: isOnMainQueue(), tag: ""))
        }
        _ = await eventually { recorder.count == 1 }
        return recorder.values.first
    }

    /// The process's shared server (see `SharedTestServer`), as the AlamofireImage tests use it.
    private func sharedServer() async throws -> AFIServer {
        Request.addAcceptableImageContentTypes(["image/*"])
        return AFIServer(server: try await SharedTestServer.common.server)
    }

    @Test func decodesPNG() async throws {
        let server = try await AFIServer.start()
        let response = try #require(
            await responseImage(server.serve(TestImages.png(width: 33, height: 22), at: "s.png")))
        #expect(response.image?.width == 33 && response.image?.height == 22 && response.onMainThread)
    }

    @Test func decodesJPEG() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.jpeg(width: 32, height: 16), at: "s.jpg", contentType: "image/jpeg")
        let response = try #require(await responseImage(url))
        #expect(response.image?.width == 32 && response.image?.height == 16)
    }

    @Test(arguments: [
        ("s.webp", "image/webp", TestImages.webp(width: 30, height: 20)),
        ("s.avif", "image/avif", TestImages.avif(width: 30, height: 20)),
        ("s.gif", "image/gif", TestImages.animatedGIF(width: 30, height: 20)),
    ])
    func decodesTheFormatsOfTheWebWithTheirContentTypes(_ name: String, _ contentType: String, _ data: Data)
        async throws
    {
        let server = try await AFIServer.start()
        let response = try #require(await responseImage(server.serve(data, at: name, contentType: contentType)))
        #expect(response.image?.width == 30 && response.image?.height == 20)
    }

    @Test func decodesFileURLsWithoutAContentType() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("afi-\(UUID().uuidString).png")
        try TestImages.png(width: 5, height: 7).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try #require(await responseImage(file))
        #expect(response.image?.width == 5 && response.image?.height == 7)
    }

    @Test func refusesAnUnsupportedContentTypeWithMinus1016() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "s.txt", contentType: "text/plain")
        let response = try #require(await responseImage(url))
        #expect(response.error?.domain == NSURLErrorDomain && response.error?.code == NSURLErrorCannotDecodeContentData)
    }

    @Test func refusesJSONWithMinus1016() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(Data("[1, 2]".utf8), at: "s.json", contentType: "application/json")
        let response = try #require(await responseImage(url))
        #expect(response.error?.code == -1016)
    }

    @Test func refusesEmptyDataWithMinus1015() async throws {
        let server = try await AFIServer.start()
        let response = try #require(await responseImage(server.serve(Data(), at: "empty.png")))
        #expect(response.error?.domain == NSURLErrorDomain && response.error?.code == NSURLErrorCannotDecodeRawData)
    }

    @Test func anEmptyBodyStillGivesThe200ResponseWithItsError() async throws {
        let server = try await sharedServer()
        let response = try #require(await responseImage(server.serve(Data(), at: "bytes-0.png")))
        #expect(response.error?.code == NSURLErrorCannotDecodeRawData)
        #expect(response.response.response?.statusCode == 200)
        #expect(response.response.response?.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(response.response.data == Data())
    }

    @Test func anEmptyBodyReportsNoProgress() async throws {
        let server = try await sharedServer()
        let url = server.serve(Data(), at: "quiet.png")
        let progress = Recorder<Int64>()
        let done = Recorder<Bool>()
        Alamofire.request(.GET, url)
            .progress { bytesRead, _, _ in progress.append(bytesRead) }
            .response { _, _, _, _ in done.append(true) }
        #expect(await eventually { done.count == 1 })
        #expect(progress.count == 0)
    }

    @Test func refusesUndecodableBytesWithMinus1015() async throws {
        let server = try await AFIServer.start()
        let random = Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let response = try #require(await responseImage(server.serve(random, at: "random.png")))
        #expect(response.error?.code == -1015)
        #expect(response.response.response?.statusCode == 200)
    }

    @Test func passesTransportErrorsThrough() {
        let serializer = Request.imageResponseSerializer()
        let failure = NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)
        let result = serializer.serializeResponse(nil, nil, TestImages.png(), failure)
        #expect(result.error === failure)
    }

    @Test func acceptsAddedContentTypes() async throws {
        let server = try await AFIServer.start()
        Request.addAcceptableImageContentTypes(["image/x-comet-test"])
        let response = try #require(
            await responseImage(server.serve(TestImages.png(), at: "x.png", contentType: "image/x-comet-test")))
        #expect(response.image != nil)
    }

    @Test func requestStateFollowsTheLoad() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let url = server.serve(TestImages.png(), at: "state.png", after: gate)
        let request = Alamofire.request(.GET, url)
        #expect(request.task.state == .running)
        request.cancel()
        #expect(await eventually { request.task.state == .completed })
        gate.release()
        let recorder = Recorder<NSError?>()
        request.response { _, _, _, error in recorder.append(error) }
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first??.code == NSURLErrorCancelled)
    }
}
