import Comet
import CometAsyncHTTPClient
import CometTestSupport
import FlyingFox
import Foundation
import Locking
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `AsyncHTTPClientDataLoader` keeps `DataLoader`'s contract, checked through a real HTTP
/// server on loopback (FlyingFox) and a raw fault server: every load ends exactly once, with
/// the bytes or with the error `DataLoader` gives for the same failure.
@Suite("AsyncHTTPClientDataLoader: DataLoader's contract", .timeLimit(.minutes(10)))
struct LoaderContractTests {
    private func makeLoader(_ configure: (inout AsyncHTTPClientDataLoader.Configuration) -> Void = { _ in })
        -> AsyncHTTPClientDataLoader
    {
        var configuration = AsyncHTTPClientDataLoader.Configuration()
        configure(&configuration)
        return AsyncHTTPClientDataLoader(configuration: configuration)
    }

    @Test func loadsTheBodyWithItsResponse() async throws {
        let server = try await TestServer.start()
        let jpeg = TestImages.jpeg(width: 80, height: 60)
        server.serve(jpeg, at: "a.jpg")
        let result = await LoadResult.load(server.imageURL("a.jpg"), with: makeLoader())
        #expect(result.error == nil)
        #expect(result.data == jpeg)
        #expect(result.response?.statusCode == 200)
        #expect(result.response?.url == server.imageURL("a.jpg"))
        #expect(result.response?.expectedContentLength == Int64(jpeg.count))
        #expect(result.completions == 1)
    }

    @Test func streamsTheBodyAsItArrives() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 7, count: 4000), at: "d")
        let result = await LoadResult.load(server.url("/drip/d?chunk=1000&interval=30"), with: makeLoader())
        #expect(result.error == nil)
        #expect(result.data.count == 4000)
        #expect(result.chunks.count >= 2)
    }

    @Test func anEmptyBodyDeliversItsResponseInOneEmptyChunkBeforeTheCompletion() async throws {
        let server = try await TestServer.start()
        server.handle("/empty") { _ in
            HTTPResponse(statusCode: .ok, headers: HTTPHeaders([HTTPHeader("X-Origin"): "empty"]), body: Data())
        }
        let result = await LoadResult.load(server.url("/empty"), with: makeLoader())
        #expect(result.error == nil)
        #expect(result.chunks == [Data()])
        #expect(result.response?.statusCode == 200)
        #expect(result.response?.value(forHTTPHeaderField: "X-Origin") == "empty")
        #expect(result.completions == 1)
    }

    @Test func aBodyWithBytesGetsNoExtraEmptyChunk() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 5, count: 3000), at: "b")
        let result = await LoadResult.load(server.imageURL("b"), with: makeLoader())
        #expect(result.data.count == 3000)
        #expect(result.chunks.allSatisfy { !$0.isEmpty })
    }

    @Test(arguments: [404, 500, 503])
    func anErrorStatusFailsWithTheStatus(status: Int) async throws {
        let server = try await TestServer.start()
        let result = await LoadResult.load(server.url("/status/\(status)"), with: makeLoader())
        #expect(result.loaderError == .statusCode(status))
        #expect(result.chunks.isEmpty)
    }

    @Test func aRetryAfterOn503IsReported() async throws {
        let server = try await TestServer.start()
        server.handle("/busy") { _ in
            HTTPResponse(statusCode: .serviceUnavailable, headers: HTTPHeaders([HTTPHeader("Retry-After"): "7"]))
        }
        let result = await LoadResult.load(server.url("/busy"), with: makeLoader())
        #expect(result.loaderError == .retryAfter(statusCode: 503, seconds: 7))
    }

    @Test func aRedirectChainIsFollowed() async throws {
        let server = try await TestServer.start()
        server.serve(Data("done".utf8), at: "x")
        let result = await LoadResult.load(server.url("/redirect/3/x"), with: makeLoader())
        #expect(result.error == nil)
        #expect(result.data == Data("done".utf8))
        #expect(result.response?.url == server.imageURL("x"))
    }

    @Test func aRedirectLoopFailsWithTooManyRedirects() async throws {
        let server = try await TestServer.start()
        let result = await LoadResult.load(server.url("/redirect-loop"), with: makeLoader { $0.maximumRedirects = 4 })
        #expect(result.urlErrorCode == .httpTooManyRedirects)
        #expect(server.requestCount(for: "/redirect-loop") == 5)
    }

    @Test func credentialsDoNotFollowARedirectToAnotherOrigin() async throws {
        let origin = try await TestServer.start()
        let other = try await TestServer.start()
        let seen = SeenHeaders()
        other.handle("/landing") { request in
            seen.record(request.headers[HTTPHeader("Authorization")])
            return HTTPResponse(statusCode: .ok, body: Data("ok".utf8))
        }
        origin.handle("/away") { _ in
            HTTPResponse(statusCode: .found, headers: HTTPHeaders([.location: other.url("/landing").absoluteString]))
        }
        var request = URLRequest(url: origin.url("/away"))
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        let result = await LoadResult.load(request, with: makeLoader())
        #expect(result.error == nil)
        #expect(seen.values == [nil])
    }

    @Test func credentialsFollowARedirectWithinTheOrigin() async throws {
        let server = try await TestServer.start()
        let seen = SeenHeaders()
        server.handle("/landing") { request in
            seen.record(request.headers[HTTPHeader("Authorization")])
            return HTTPResponse(statusCode: .ok, body: Data("ok".utf8))
        }
        server.handle("/here") { _ in
            HTTPResponse(statusCode: .movedPermanently, headers: HTTPHeaders([.location: "/landing"]))
        }
        var request = URLRequest(url: server.url("/here"))
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        _ = await LoadResult.load(request, with: makeLoader())
        #expect(seen.values == ["Bearer secret"])
    }

    @Test func aContentLengthOverTheLimitFailsBeforeTheBody() async throws {
        let server = try await TestServer.start()
        let result = await LoadResult.load(
            server.url("/oversize"), with: makeLoader { $0.maximumResponseDataSize = 1 << 20 })
        #expect(result.loaderError == .responseTooLarge(limit: 1 << 20))
        #expect(result.chunks.isEmpty)
    }

    @Test func aBodyOverTheLimitFailsWhileReceiving() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 1, count: 6000), at: "big")
        // Chunked (no Content-Length), so only the received bytes can tell.
        let result = await LoadResult.load(
            server.url("/drip/big?chunk=2000&interval=5"),
            with: makeLoader { $0.maximumResponseDataSize = 3000 })
        #expect(result.loaderError == .responseTooLarge(limit: 3000))
        #expect(result.data.count <= 3000)
    }

    @Test func aBodyShorterThanItsContentLengthFails() async throws {
        let faults = try FaultServer()
        let result = await LoadResult.load(faults.url("/short"), with: makeLoader())
        #expect(result.loaderError == .incompleteBody(received: 1000, expected: 10000))
        #expect(ImagePipeline.RetryPolicy.isTransient(try #require(result.error)))
    }

    @Test func aConnectionResetMidBodyFailsAsTransient() async throws {
        let faults = try FaultServer()
        let result = await LoadResult.load(faults.url("/reset"), with: makeLoader())
        let error = try #require(result.error)
        #expect(ImagePipeline.RetryPolicy.isTransient(error))
        #expect(result.completions == 1)
    }

    @Test func aStalledBodyTimesOut() async throws {
        let faults = try FaultServer()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await LoadResult.load(faults.url("/stall"), with: makeLoader { $0.timeoutForRequest = 0.5 })
        #expect(result.urlErrorCode == .timedOut)
        #expect(clock.now - start < .seconds(10))
    }

    @Test func theResourceDeadlineEndsASlowDrip() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 2, count: 5000), at: "slow")
        let result = await LoadResult.load(
            server.url("/drip/slow?chunk=100&interval=100"),
            with: makeLoader { $0.timeoutForResource = 0.6 })
        #expect(result.urlErrorCode == .timedOut)
    }

    @Test func aRefusedConnectionFailsAsCannotConnect() async throws {
        let port = try closedLoopbackPort()
        let result = await LoadResult.load(URL(string: "http://127.0.0.1:\(port)/x")!, with: makeLoader())
        #expect(result.urlErrorCode == .cannotConnectToHost)
    }

    @Test func cancellingEndsTheLoadOnceWithCancelled() async throws {
        let faults = try FaultServer()
        let result = await LoadResult.load(URLRequest(url: faults.url("/stall")), with: makeLoader()) { task in
            Task {
                try await Task.sleep(for: .milliseconds(100))
                task.cancel()
                task.cancel()
            }
        }
        #expect(result.urlErrorCode == .cancelled)
        #expect(result.completions == 1)
    }

    /// Marks its release, so a test can see whether a load still holds it.
    final class Owner: Sendable {
        let released: Locked<Bool>
        init(_ released: Locked<Bool>) { self.released = released }
        deinit { released.withLock { $0 = true } }
    }

    @Test func aFinishedLoadKeepsNoReferenceToItsCallbacks() async throws {
        // A pipeline's job holds the task the loader returns; the callbacks hold the job. The
        // task must let the callbacks go when it completes, or the two keep each other alive.
        let server = try await TestServer.start()
        server.serve(Data(repeating: 3, count: 1000), at: "x")
        let loader = makeLoader()
        let released = Locked(false)
        let kept = Locked<(any DataLoadingTask)?>(nil)
        do {
            let owner = Owner(released)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let task = loader.loadData(
                    with: URLRequest(url: server.imageURL("x")),
                    didReceiveData: { _, _ in _ = owner },
                    completion: { _ in
                        _ = owner; continuation.resume()
                    })
                kept.withLock { $0 = task }
            }
        }
        // The completion resumed us from inside itself, on the event loop: give it time to return.
        for _ in 0..<200 where !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(kept.withLock { $0 } != nil)
        #expect(released.withLock { $0 })
    }

    @Test func aRangeAnswerIsPassedOnWithItsHeaders() async throws {
        let body = Data((0..<200).map { UInt8($0) })
        let server = try RangeServer(body: body)
        var request = URLRequest(url: server.url)
        request.setValue("bytes=100-", forHTTPHeaderField: "Range")
        request.setValue(RangeServer.Behaviour().etag, forHTTPHeaderField: "If-Range")
        let result = await LoadResult.load(request, with: makeLoader())
        #expect(result.response?.statusCode == 206)
        #expect(result.response?.value(forHTTPHeaderField: "Content-Range") == "bytes 100-199/200")
        #expect(result.data == body.subdata(in: 100..<200))
    }

    @Test func fileAndDataURLsLoadAsDataLoaderLoadsThem() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("comet-ahc-\(UUID().uuidString)")
        try Data("file bytes".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = await LoadResult.load(file, with: makeLoader())
        #expect(fromFile.data == Data("file bytes".utf8))
        let fromData = await LoadResult.load(URL(string: "data:text/plain;base64,aGk=")!, with: makeLoader())
        #expect(fromData.data == Data("hi".utf8))
        let disabled = await LoadResult.load(file, with: makeLoader { $0.allowsFileURLs = false })
        #expect(disabled.loaderError == .fileURLsDisabled(file))
    }
}
