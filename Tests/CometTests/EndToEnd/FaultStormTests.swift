import Locking
import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// Faults in bulk and the ones a size check alone would miss: compressed bodies that expand,
/// bodies longer than announced, bursts of 5xx, and all of them at once beside good loads.
@Suite("Fault storms through the real server", .timeLimit(.minutes(10)))
struct FaultStormTests {
    /// 64 KiB on the wire, 64 MiB once gunzipped (URLSession on Linux decodes gzip itself).
    static let gzipBomb = try! Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/zeros-64MiB.gz"))

    static func serveGzipBomb(on server: TestServer, at path: String) {
        server.handle(path) { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "image/jpeg", HTTPHeader("Content-Encoding"): "gzip"],
                body: gzipBomb)
        }
    }

    @Test func gzipBombIsCutAtTheResponseSizeLimit() async throws {
        let server = try await TestServer.start()
        Self.serveGzipBomb(on: server, at: "/bomb.jpg")
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true) { $0.maximumResponseDataSize = 1 << 20 }
        do {
            _ = try await pipeline.image(for: server.url("/bomb.jpg"))
            Issue.record("a body expanding past the limit must fail")
        } catch let error as ImagePipeline.Error {
            guard case .responseTooLarge(_, limit: 1 << 20) = error else { Issue.record("\(error)"); return }
        }
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
    }

    @Test func bodyLongerThanItsContentLengthIsCutAndNotCached() async throws {
        let faults = try FaultServer(image: TestImages.jpeg(width: 200, height: 150))
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        let request = ImageRequest(url: faults.url("/overlong"))
        // Only the announced half is read: a decoding error, or a concealed image that is
        // shown but never cached.
        _ = try? await pipeline.image(for: request)
        dataCache?.flush()
        #expect(dataCache?.totalCount == 0)
        #expect(pipeline.cache[request] == nil)
    }

    @Test func serverErrorBurstIsNotCachedAndTheNextLoadSucceeds() async throws {
        let server = try await TestServer.start()
        let image = TestImages.jpeg(width: 40, height: 30)
        let served = Locked(0)
        server.handle("/flaky.jpg") { _ in
            let count = served.withLock {
                $0 += 1; return $0
            }
            return count <= 3
                ? HTTPResponse(statusCode: .serviceUnavailable)
                : HTTPResponse(statusCode: .ok, headers: [.contentType: "image/jpeg"], body: image)
        }
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true)
        for _ in 0..<3 {
            await #expect(throws: ImagePipeline.Error.self) {
                _ = try await pipeline.image(for: server.url("/flaky.jpg"))
            }
        }
        let loaded = try await pipeline.image(for: server.url("/flaky.jpg"))
        #expect(loaded.width == 40)
        dataCache?.flush()
        #expect(dataCache?.cachedData(for: server.url("/flaky.jpg").absoluteString) == image)
    }

    /// Forty good loads and forty faulty ones at once: every load ends within its timeout, the
    /// good ones get their own images, the caches hold exactly the good ones, and the pipeline
    /// goes on serving.
    @Test func stormOfFaultsLeavesGoodLoadsAndCachesIntact() async throws {
        let server = try await TestServer.start()
        let faults = try FaultServer(image: TestImages.jpeg(width: 120, height: 90))
        let good = (0..<10).map { TestImages.jpeg(width: 30 + $0, height: 20) }
        for (index, data) in good.enumerated() { server.serve(data, at: "good\(index).jpg") }
        server.serve(Data("<html>not an image</html>".utf8), at: "page.jpg")
        Self.serveGzipBomb(on: server, at: "/bomb.jpg")
        let faulty = [
            server.url("/status/500"), server.url("/status/503"), server.url("/status/404"),
            server.url("/redirect-loop"), server.imageURL("page.jpg"), server.url("/bomb.jpg"),
            faults.url("/short"), faults.url("/reset"), faults.url("/stall"), faults.url("/overlong"),
        ]
        var loader = DataLoader.Configuration()
        // Ends the stalls. Generous so that a loaded machine cannot fail a good load: 5 s was
        // exceeded by good loads under AddressSanitizer with the whole suite running in parallel.
        loader.timeoutForRequest = 15
        let (pipeline, dataCache) = makeRealPipeline(diskCache: true, loader: loader) {
            $0.maximumResponseDataSize = 1 << 20
            $0.dataLoadingConcurrencyLimit = 8
        }

        let results = await withTaskGroup(
            of: (url: URL, index: Int?, width: Int?, error: String?, seconds: Double).self
        ) { group in
            for round in 0..<4 {
                for index in good.indices {
                    group.addTask {
                        let start = Date()
                        // Distinct query per round: four downloads of each image, not one.
                        let url = server.url("/images/good\(index).jpg?round=\(round)")
                        do {
                            let image = try await pipeline.image(for: url)
                            return (url, index, image.width, nil, Date().timeIntervalSince(start))
                        } catch {
                            return (url, index, nil, "\(error)", Date().timeIntervalSince(start))
                        }
                    }
                }
                for url in faulty {
                    group.addTask {
                        let start = Date()
                        let image = try? await pipeline.image(for: url)
                        return (url, nil, image?.width, nil, Date().timeIntervalSince(start))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.count == 80)
        for result in results {
            // A hang guard, not a speed check: a stall ends at the 15 s request timeout, so a load
            // that takes 8× that is one that nothing ended.
            #expect(result.seconds < 120, "\(result.url) took \(result.seconds) s")
            if let index = result.index {
                #expect(result.width == 30 + index, "\(result.url): \(result.error ?? "")")
            } else if result.url.path != "/overlong" {  // a cut JPEG may decode with concealment
                #expect(result.width == nil, "\(result.url) must fail")
            }
        }
        dataCache?.flush()
        #expect(dataCache?.totalCount == 40)
        for result in results {
            let stored = dataCache?.cachedData(for: result.url.absoluteString)
            if let index = result.index {
                #expect(stored == good[index])
            } else {
                #expect(stored == nil, "\(result.url) reached the disk cache")
                #expect(pipeline.cache[ImageRequest(url: result.url)] == nil, "\(result.url) reached the memory cache")
            }
        }
        server.serve(TestImages.jpeg(width: 77, height: 20), at: "after.jpg")
        #expect(try await pipeline.image(for: server.imageURL("after.jpg")).width == 77)
    }
}
