import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// Every fault a real network produces, through a real HTTP server on loopback: each request
/// ends with a clear error within its timeout, and nothing partial reaches a cache.
@Suite("Faults through the real server", .timeLimit(.minutes(10)))
struct LoadingFaultTests {
    @Test func loadsJPEGAndPNGFromTheServer() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 80, height: 60), at: "a.jpg")
        server.serve(TestImages.png(width: 30, height: 20), at: "b.png")
        let (pipeline, _) = makeRealPipeline()
        let jpeg = try await pipeline.image(for: server.imageURL("a.jpg"))
        let png = try await pipeline.image(for: server.imageURL("b.png"))
        #expect(jpeg.width == 80 && jpeg.height == 60)
        #expect(png.width == 30 && !png.isOpaque)
    }

    @Test(arguments: [404, 500, 503])
    func httpErrorCarriesTheStatusAndCachesNothing(status: Int) async throws {
        let server = try await TestServer.start()
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        let request = ImageRequest(url: server.url("/status/\(status)"))
        do {
            _ = try await pipeline.image(for: request)
            Issue.record("HTTP \(status) must fail")
        } catch let error as ImagePipeline.Error {
            #expect(error.statusCode == status)
            #expect(error.description.contains("HTTP \(status)"))
        }
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
        #expect(pipeline.cache[request] == nil)
    }

    @Test func corruptImageBytesGiveADecodingErrorAndAreNotCached() async throws {
        let server = try await TestServer.start()
        var bytes = [UInt8](TestImages.jpeg(width: 64, height: 64))
        for i in stride(from: 200, to: bytes.count - 2, by: 7) { bytes[i] = 0xFF }  // markers all over the scan
        server.serve(Data(bytes.prefix(bytes.count / 3)), at: "broken.jpg")
        server.serve(Data("<html>not an image</html>".utf8), at: "page.html")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        for name in ["broken.jpg", "page.html"] {
            do {
                _ = try await pipeline.image(for: server.imageURL(name))
                // A damaged JPEG may decode with concealment: then it must not be cached.
                #expect(name == "broken.jpg")
            } catch let error as ImagePipeline.Error {
                #expect(error.isDecodingFailure, "\(error)")
            }
        }
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
        #expect(pipeline.cache[ImageRequest(url: server.imageURL("broken.jpg"))] == nil)
    }

    @Test func redirectChainIsFollowed() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "target.jpg")
        let (pipeline, _) = makeRealPipeline()
        let image = try await pipeline.image(for: server.url("/redirect/3/target.jpg"))
        #expect(image.width == 64)
        #expect(server.requestCount(for: "/images/target.jpg") == 1)
    }

    @Test func redirectLoopFailsInsteadOfHanging() async throws {
        let server = try await TestServer.start()
        let (pipeline, _) = makeRealPipeline()
        await #expect(throws: ImagePipeline.Error.self) {
            _ = try await pipeline.image(for: server.url("/redirect-loop"))
        }
    }

    @Test func unauthorizedWithoutCredentialsFailsWith401() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "secret.jpg")
        let (pipeline, _) = makeRealPipeline()
        do {
            _ = try await pipeline.image(for: server.url("/basic/alice/wonderland/secret.jpg"))
            Issue.record("a 401 must fail")
        } catch let error as ImagePipeline.Error {
            #expect(error.statusCode == 401, "\(error)")
        }
    }

    @Test func perRequestCredentialsAnswerTheChallenge() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "secret.jpg")
        var loader = DataLoader.Configuration()
        loader.credentialProvider = { _, request in
            // Different credentials per path, chosen from the request.
            request?.url?.path.contains("/alice/") == true
                ? URLCredential(user: "alice", password: "wonderland", persistence: .none) : nil
        }
        let (pipeline, _) = makeRealPipeline(loader: loader)
        let image = try await pipeline.image(for: server.url("/basic/alice/wonderland/secret.jpg"))
        #expect(image.width == 64)
        await #expect(throws: ImagePipeline.Error.self) {
            _ = try await pipeline.image(for: server.url("/basic/bob/builder/secret.jpg"))
        }
    }

    @Test func oversizedResponseFailsFromItsContentLength() async throws {
        let server = try await TestServer.start()
        var loader = DataLoader.Configuration()
        loader.maximumResponseDataSize = 1 << 20
        let (pipeline, _) = makeRealPipeline(loader: loader)
        do {
            _ = try await pipeline.image(for: server.url("/oversize"))
            Issue.record("an oversized response must fail")
        } catch let error as ImagePipeline.Error {
            guard case .responseTooLarge = error else { Issue.record("\(error)"); return }
        }
    }

    /// The server would answer after 20 s; the 0.5 s request timeout ends the load long before.
    /// The error says so (an answer at 20 s would have loaded): no wall-clock bound, which a
    /// loaded run, where the parallel tests hold the cooperative threads for long, could exceed.
    @Test func slowServerPastTheTimeoutFails() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "slow.jpg")
        var loader = DataLoader.Configuration()
        loader.timeoutForRequest = 0.5
        let (pipeline, _) = makeRealPipeline(loader: loader)
        do {
            _ = try await pipeline.image(for: server.url("/slow/20000/slow.jpg"))
            Issue.record("a request past its timeout must fail")
        } catch let error as ImagePipeline.Error {
            guard case .dataLoadingFailed(_, nil, let underlying) = error else { Issue.record("\(error)"); return }
            #expect((underlying as? URLError)?.code == .timedOut, "\(underlying)")
        }
    }

    @Test func bodyShorterThanContentLengthFails() async throws {
        let faults = try FaultServer()
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: faults.url("/short")) }
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
    }

    @Test func connectionResetMidBodyFails() async throws {
        let faults = try FaultServer()
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: faults.url("/reset")) }
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
    }

    @Test func stalledBodyTimesOut() async throws {
        let faults = try FaultServer()
        var loader = DataLoader.Configuration()
        loader.timeoutForRequest = 0.5
        let (pipeline, _) = makeRealPipeline(loader: loader)
        await #expect(throws: ImagePipeline.Error.self) { _ = try await pipeline.image(for: faults.url("/stall")) }
    }

    @Test func fileAndDataURLsLoad() async throws {
        let (pipeline, _) = makeRealPipeline()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("comet-\(UUID().uuidString).png")
        try TestImages.png(width: 12, height: 9).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await pipeline.image(for: file).width == 12)
        let dataURL = URL(string: "data:image/png;base64," + TestImages.png(width: 5, height: 4).base64EncodedString())!
        #expect(try await pipeline.image(for: dataURL).height == 4)
    }

    @Test func fileURLsCanBeDisabled() async throws {
        var loader = DataLoader.Configuration()
        loader.allowsFileURLs = false
        let (pipeline, _) = makeRealPipeline(loader: loader)
        await #expect(throws: ImagePipeline.Error.self) {
            _ = try await pipeline.image(for: URL(fileURLWithPath: "/etc/hostname"))
        }
    }

    @Test func cancellingTheLastTaskClosesTheConnection() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 256, height: 256), at: "big.jpg")
        let (pipeline, _) = makeRealPipeline()
        let task = pipeline.imageTask(with: ImageRequest(url: server.url("/slow/2000/big.jpg")))
        #expect(await eventually { server.requestCount(for: "/slow/2000/big.jpg") == 1 })
        task.cancel()
        do {
            _ = try await task.response
            Issue.record("cancelled")
        } catch let error as ImagePipeline.Error {
            #expect(error.isCancellation)
        }
        #expect(await eventually { pipeline.activeJobCount == 0 })
    }
}
