import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// Resumable downloads through a raw server that supports byte ranges and cuts the first full
/// response at 60 %: what the server sends is counted, so "only the rest" is measured.
@Suite("Resumable downloads end to end", .timeLimit(.minutes(10)))
struct ResumableDownloadTests {
    private let body = TestImages.png(width: 256, height: 192)

    private func expectCutLoadFails(_ pipeline: ImagePipeline, _ server: RangeServer) async {
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: server.url) }
    }

    @Test func theSecondLoadTransfersOnlyTheRest() async throws {
        let server = try RangeServer(body: body)
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.imageCache = nil }
        await expectCutLoadFails(pipeline, server)
        let cut = server.bodyBytesSent
        #expect(cut == Int(Double(body.count) * 0.6))
        #expect(pipeline.context.resumableData?.totalBytes == cut)
        let image = try await pipeline.image(for: server.url)
        #expect(image.width == 256)
        #expect(server.bodyBytesSent == body.count)  // 60 % then the 40 % left
        #expect(server.requests.last == .init(range: "bytes=\(cut)-", ifRange: "\"v1\""))
        dataCache?.flush()
        #expect(dataCache?.cachedData(for: server.url.absoluteString) == body)
        #expect(pipeline.context.resumableData?.totalBytes == 0)
    }

    @Test func theResumedImageEqualsAOneShotDecode() async throws {
        let server = try RangeServer(body: body)
        let (pipeline, _) = makeRealPipeline { $0.imageCache = nil }
        await expectCutLoadFails(pipeline, server)
        let resumed = try await pipeline.image(for: server.url)
        let whole = try Image(data: body)
        #expect(resumed == whole)
    }

    @Test func aChangedETagForcesAFullDownload() async throws {
        let server = try RangeServer(body: body)
        let (pipeline, _) = makeRealPipeline { $0.imageCache = nil }
        await expectCutLoadFails(pipeline, server)
        let cut = server.bodyBytesSent
        server.update { $0.etag = "\"v2\"" }
        #expect(try await pipeline.image(for: server.url).width == 256)
        #expect(server.bodyBytesSent == cut + body.count)
        #expect(server.requests.last?.ifRange == "\"v1\"")
    }

    @Test func aFullReplyToARangeRequestIsUsedWhole() async throws {
        let server = try RangeServer(body: body)
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.imageCache = nil }
        await expectCutLoadFails(pipeline, server)
        server.update { $0.ignoresRanges = true }
        #expect(try await pipeline.image(for: server.url).width == 256)
        #expect(server.requests.last?.range != nil)
        dataCache?.flush()
        #expect(dataCache?.cachedData(for: server.url.absoluteString) == body)
    }

    @Test func aRangeThatDoesNotContinueIsDiscardedForAFullDownload() async throws {
        let server = try RangeServer(body: body)
        let (pipeline, _) = makeRealPipeline { $0.imageCache = nil }
        await expectCutLoadFails(pipeline, server)
        server.update { $0.contentRangeSkew = 100 }
        #expect(try await pipeline.image(for: server.url).width == 256)
        #expect(server.requests.count == 3)
        #expect(server.requests.last?.range == nil)  // the third request asks for everything
    }

    @Test func aRetryAfterTheCutResumes() async throws {
        let server = try RangeServer(body: body)
        let sleeper = TestSleeper()
        let (pipeline, _) = makeRealPipeline {
            $0.imageCache = nil
            $0.retryPolicy = sleeper.policy()
        }
        #expect(try await pipeline.image(for: server.url).width == 256)
        #expect(sleeper.delays.count == 1)
        #expect(server.bodyBytesSent == body.count)
    }

    @Test func nothingIsKeptWhenResumingIsOff() async throws {
        let server = try RangeServer(body: body)
        let (pipeline, _) = makeRealPipeline {
            $0.imageCache = nil
            $0.isResumableDataEnabled = false
        }
        await expectCutLoadFails(pipeline, server)
        let cut = server.bodyBytesSent
        #expect(try await pipeline.image(for: server.url).width == 256)
        #expect(server.bodyBytesSent == cut + body.count)
        #expect(server.requests.last?.range == nil)
    }
}

/// The partial-download store and the 206 check, on values alone.
@Suite("Resumable data")
struct ResumableDataTests {
    private func response(status: Int = 200, _ headers: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(
            url: URL(string: "http://example.com/a.png")!, statusCode: status, httpVersion: "HTTP/1.1",
            headerFields: headers)!
    }

    @Test func aResponseWithoutRangesOrValidatorCannotBeResumed() {
        let data = Data(repeating: 1, count: 10)
        #expect(ResumableData(data: data, response: response(["Content-Length": "100", "ETag": "\"a\""])) == nil)
        #expect(
            ResumableData(data: data, response: response(["Content-Length": "100", "Accept-Ranges": "bytes"])) == nil)
        #expect(
            ResumableData(
                data: data,
                response: response(["Content-Length": "100", "Accept-Ranges": "bytes", "ETag": "W/\"weak\""])) == nil)
    }

    @Test func lastModifiedServesWhenThereIsNoETag() {
        let partial = ResumableData(
            data: Data(count: 10),
            response: response([
                "Content-Length": "100", "Accept-Ranges": "bytes",
                "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
            ]))
        #expect(partial?.validator == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func onlyAContentRangeStartingWhereTheDataEndsContinuesIt() {
        let partial = ResumableData(data: Data(count: 10), validator: "\"a\"", totalLength: 100)
        #expect(partial.isContinued(by: response(status: 206, ["Content-Range": "bytes 10-99/100"])))
        #expect(!partial.isContinued(by: response(status: 206, ["Content-Range": "bytes 0-99/100"])))
        #expect(!partial.isContinued(by: response(status: 206, ["Content-Range": "bytes 10-99/200"])))
        #expect(!partial.isContinued(by: response(status: 200, ["Content-Range": "bytes 10-99/100"])))
    }

    @Test func theStoreDropsTheOldestBeyondItsLimit() {
        let store = ResumableDataStore(byteLimit: 25)
        store.store(ResumableData(data: Data(count: 10), validator: "a", totalLength: 50), for: "1")
        store.store(ResumableData(data: Data(count: 10), validator: "b", totalLength: 50), for: "2")
        store.store(ResumableData(data: Data(count: 10), validator: "c", totalLength: 50), for: "3")
        #expect(store.totalBytes == 20)
        #expect(store.take(for: "1") == nil)
        #expect(store.take(for: "3")?.validator == "c")
        #expect(store.take(for: "3") == nil)  // taken once
    }
}

/// What a failed resuming attempt leaves for the next one.
@Suite("Resumable downloads that fail again", .timeLimit(.minutes(10)))
struct ResumableDownloadFailureTests {
    @Test func aResumeThatFailsBeforeItsResponseKeepsTheBytesForTheNextLoad() async throws {
        let body = TestImages.png(width: 128, height: 96)
        var server: RangeServer? = try RangeServer(body: body)
        let url = server!.url
        let (pipeline, _) = makeRealPipeline { $0.imageCache = nil }
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: url) }
        let kept = try #require(pipeline.context.resumableData?.totalBytes)
        #expect(kept > 0)
        server = nil  // the port now refuses connections
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: url) }
        #expect(pipeline.context.resumableData?.totalBytes == kept)
    }
}
