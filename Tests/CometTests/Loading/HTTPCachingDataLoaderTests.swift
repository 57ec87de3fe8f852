@testable import Comet
import CometTestSupport
import FlyingFox
import Foundation
import Locking
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPCachingDataLoader` end to end: the default loader against a real server on 127.0.0.1,
/// and a real `DataCache` on disk. A "later run" is a new loader over a new `DataCache` on the
/// same directory, as the next launch of an app would have.
@Suite("HTTPCachingDataLoader", .timeLimit(.minutes(10)))
struct HTTPCachingDataLoaderTests {
    /// A server route answering with `headers`, and 304 to a matching validator when
    /// `answers304` is set; it records the validators each request sent.
    final class Origin: Sendable {
        let server: TestServer
        let path: String
        let body = Locked(Data("version-1".utf8))
        let headers: Locked<[String: String]>
        let answers304: Bool
        let seenValidators = Locked<[String]>([])
        let notModifiedCount = Locked(0)

        init(
            _ server: TestServer, path: String = "/resource-\(UUID().uuidString)", headers: [String: String],
            answers304: Bool = true
        ) {
            self.server = server
            self.path = path
            self.headers = Locked(headers)
            self.answers304 = answers304
            // Weak: the server keeps its handlers, and a server kept alive by a cycle would keep
            // its event loop's thread.
            server.handle(path) { [weak self] request in
                guard let self else { return HTTPResponse(statusCode: .gone) }
                let ifNoneMatch = request.headers[HTTPHeader("If-None-Match")]
                let ifModifiedSince = request.headers[HTTPHeader("If-Modified-Since")]
                seenValidators.withLock {
                    $0.append([ifNoneMatch, ifModifiedSince].compactMap { $0 }.joined(separator: "|"))
                }
                let current = self.headers.withLock { $0 }
                let etagMatches = ifNoneMatch != nil && ifNoneMatch == current["ETag"]
                let dateMatches = ifModifiedSince != nil && ifModifiedSince == current["Last-Modified"]
                if answers304, etagMatches || dateMatches {
                    notModifiedCount.withLock { $0 += 1 }
                    return HTTPResponse(statusCode: HTTPStatusCode(304, phrase: "Not Modified"))
                }
                var fields = HTTPHeaders()
                for (name, value) in current { fields[HTTPHeader(name)] = value }
                return HTTPResponse(statusCode: .ok, headers: fields, body: self.body.withLock { $0 })
            }
        }

        var url: URL { server.url(path) }
        var requests: Int { server.requestCount(for: path) }
    }

    private func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("http-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A loader over a new `DataCache` on `directory` (the previous one flushed first).
    private func makeLoader(
        _ directory: URL, _ configure: (inout HTTPCachingDataLoader.Configuration) -> Void = { _ in }
    )
        -> HTTPCachingDataLoader
    {
        var configuration = HTTPCachingDataLoader.Configuration()
        configure(&configuration)
        return HTTPCachingDataLoader(
            loader: DataLoader(), cache: DataCache(path: directory), configuration: configuration)
    }

    private func flush(_ loader: HTTPCachingDataLoader) {
        (loader.cache as? DataCache)?.flush()
    }

    @Test func aFreshResponseIsServedInALaterRunWithoutTouchingTheOrigin() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=3600", "Content-Type": "image/png"])
        let directory = try makeDirectory()
        let first = makeLoader(directory)
        let firstLoad = await RecordedLoad.load(origin.url, with: first)
        flush(first)
        let second = await RecordedLoad.load(origin.url, with: makeLoader(directory))
        #expect(firstLoad.error == nil && second.error == nil)
        #expect(second.data == Data("version-1".utf8))
        #expect(second.status == 200)
        #expect(second.header("Content-Type") == "image/png")
        #expect(second.header("Content-Length") == "9")
        #expect(origin.requests == 1)
    }

    @Test func aStaleResponseIsRevalidatedWithItsETagAndA304DeliversTheStoredBody() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let directory = try makeDirectory()
        let first = makeLoader(directory)
        _ = await RecordedLoad.load(origin.url, with: first)
        flush(first)
        let second = await RecordedLoad.load(origin.url, with: makeLoader(directory))
        #expect(second.error == nil)
        #expect(second.data == Data("version-1".utf8))
        #expect(second.status == 200)
        #expect(origin.seenValidators.withLock { $0 } == ["", "\"v1\""])
        #expect(origin.notModifiedCount.withLock { $0 } == 1)
    }

    @Test func aStaleResponseIsRevalidatedWithItsLastModified() async throws {
        let server = try await SharedTestServer.common.server
        let lastModified = "Tue, 03 Nov 2026 10:00:00 GMT"
        let origin = Origin(server, headers: ["Cache-Control": "no-cache", "Last-Modified": lastModified])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        let second = await RecordedLoad.load(origin.url, with: loader)
        #expect(second.data == Data("version-1".utf8))
        #expect(origin.seenValidators.withLock { $0 } == ["", lastModified])
        #expect(origin.notModifiedCount.withLock { $0 } == 1)
    }

    @Test func aChangedResourceReplacesTheStoredEntryOnRevalidation() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        origin.body.withLock { $0 = Data("version-2".utf8) }
        origin.headers.withLock { $0["ETag"] = "\"v2\"" }
        let changed = await RecordedLoad.load(origin.url, with: loader)
        let again = await RecordedLoad.load(origin.url, with: loader)
        #expect(changed.data == Data("version-2".utf8))
        #expect(again.data == Data("version-2".utf8))
        #expect(origin.seenValidators.withLock { $0 } == ["", "\"v1\"", "\"v2\""])
    }

    @Test func aRevalidated304MakesTheEntryFreshAgainForItsLifetime() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""])
        let now = Locked(Date())
        let loader = HTTPCachingDataLoader(
            loader: DataLoader(), cache: DataCache(path: try makeDirectory()), configuration: .init(),
            clock: { now.withLock { $0 } })
        _ = await RecordedLoad.load(origin.url, with: loader)
        now.withLock { $0 += 120 }
        _ = await RecordedLoad.load(origin.url, with: loader)  // stale: revalidated (304)
        now.withLock { $0 += 30 }
        let fresh = await RecordedLoad.load(origin.url, with: loader)
        #expect(fresh.data == Data("version-1".utf8))
        #expect(origin.requests == 2)
    }

    @Test func aNoStoreResponseIsNeverStored() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "no-store, max-age=3600", "ETag": "\"v1\""])
        let directory = try makeDirectory()
        let loader = makeLoader(directory)
        let first = await RecordedLoad.load(origin.url, with: loader)
        flush(loader)
        let second = await RecordedLoad.load(origin.url, with: makeLoader(directory))
        #expect(first.data == Data("version-1".utf8) && second.data == Data("version-1".utf8))
        #expect(origin.requests == 2)
        #expect(origin.seenValidators.withLock { $0 } == ["", ""])
        #expect(!loader.cache.containsData(for: "http:" + origin.url.absoluteString))
    }

    @Test func aNoStoreAnswerRemovesWhatWasStoredBefore() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        #expect(loader.cache.containsData(for: "http:" + origin.url.absoluteString))
        origin.headers.withLock { $0 = ["Cache-Control": "no-store", "ETag": "\"v2\""] }
        _ = await RecordedLoad.load(origin.url, with: loader)
        #expect(!loader.cache.containsData(for: "http:" + origin.url.absoluteString))
    }

    @Test func anExpiresInTheFutureIsFresh() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Expires": "Fri, 01 Jan 2100 00:00:00 GMT"])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        let second = await RecordedLoad.load(origin.url, with: loader)
        #expect(second.data == Data("version-1".utf8))
        #expect(origin.requests == 1)
    }

    @Test func anExpiresInThePastWithoutAValidatorIsLoadedAgain() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Expires": "Thu, 01 Jan 2015 00:00:00 GMT"])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        _ = await RecordedLoad.load(origin.url, with: loader)
        #expect(origin.requests == 2)
        #expect(origin.seenValidators.withLock { $0 } == ["", ""])
    }

    @Test func maxAgeWinsOverExpires() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(
            server, headers: ["Cache-Control": "max-age=3600", "Expires": "Thu, 01 Jan 2015 00:00:00 GMT"])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        _ = await RecordedLoad.load(origin.url, with: loader)
        #expect(origin.requests == 1)
    }

    @Test func reloadIgnoringLocalCacheDataGoesToTheOrigin() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=3600"])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        var request = URLRequest(url: origin.url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let reloaded = await RecordedLoad.load(request, with: loader)
        #expect(reloaded.data == Data("version-1".utf8))
        #expect(origin.requests == 2)
    }

    @Test func returnCacheDataDontLoadFailsWhenNothingIsStored() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=3600"])
        var request = URLRequest(url: origin.url)
        request.cachePolicy = .returnCacheDataDontLoad
        let load = await RecordedLoad.load(request, with: makeLoader(try makeDirectory()))
        #expect((load.error as? URLError)?.code == .resourceUnavailable)
        #expect(origin.requests == 0)
    }

    @Test func returnCacheDataElseLoadUsesAStaleEntry() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""])
        let loader = makeLoader(try makeDirectory())
        _ = await RecordedLoad.load(origin.url, with: loader)
        var request = URLRequest(url: origin.url)
        request.cachePolicy = .returnCacheDataElseLoad
        let load = await RecordedLoad.load(request, with: loader)
        #expect(load.data == Data("version-1".utf8))
        #expect(origin.requests == 1)
    }

    @Test func aRefusedStatusStoresNothing() async throws {
        let server = try await SharedTestServer.common.server
        server.handle("/gone") { _ in
            HTTPResponse(statusCode: .notFound, headers: HTTPHeaders([HTTPHeader("Cache-Control"): "max-age=3600"]))
        }
        let loader = makeLoader(try makeDirectory())
        let first = await RecordedLoad.load(server.url("/gone"), with: loader)
        _ = await RecordedLoad.load(server.url("/gone"), with: loader)
        #expect(first.loaderError == .statusCode(404))
        #expect(server.requestCount(for: "/gone") == 2)
    }

    @Test func aBodyOverTheEntryLimitIsDeliveredButNotStored() async throws {
        let server = try await SharedTestServer.common.server
        let origin = Origin(server, headers: ["Cache-Control": "max-age=3600"])
        let loader = makeLoader(try makeDirectory()) { $0.maximumEntrySize = 4 }
        let first = await RecordedLoad.load(origin.url, with: loader)
        _ = await RecordedLoad.load(origin.url, with: loader)
        #expect(first.data == Data("version-1".utf8))
        #expect(origin.requests == 2)
    }

    @Test func aCancelledLoadStoresNothing() async throws {
        let server = try await SharedTestServer.common.server
        server.handle("/slow") { _ in
            let body = HTTPBodySequence(
                from: DripSequence(data: Data(repeating: 9, count: 40_000), chunkSize: 4000, interval: 50),
                count: 40_000,
                suggestedBufferSize: 4000)
            return HTTPResponse(
                statusCode: .ok, headers: HTTPHeaders([HTTPHeader("Cache-Control"): "max-age=3600"]), body: body)
        }
        let loader = makeLoader(try makeDirectory())
        let ended = Locked<(any Error)??>(nil)
        let task = loader.loadData(
            with: URLRequest(url: server.url("/slow")), didReceiveData: { _, _ in },
            completion: { error in ended.withLock { $0 = .some(error) } })
        try await Task.sleep(for: .milliseconds(120))
        task.cancel()
        #expect(await eventually { ended.withLock { $0 != nil } })
        #expect((ended.withLock { $0 } as? URLError)?.code == .cancelled)
        #expect(!loader.cache.containsData(for: "http:" + server.url("/slow").absoluteString))
    }

    @Test func twoPipelinesOnTheSameDirectoryDownloadAFreshImageOnce() async throws {
        let server = try await SharedTestServer.common.server
        let png = TestImages.png(width: 40, height: 30)
        server.handle("/photo.png") { _ in
            HTTPResponse(
                statusCode: .ok, headers: HTTPHeaders([HTTPHeader("Cache-Control"): "max-age=3600"]), body: png)
        }
        let directory = try makeDirectory()
        func makePipeline(_ cache: DataCache) -> ImagePipeline {
            let loader = HTTPCachingDataLoader(loader: DataLoader(), cache: cache)
            return ImagePipeline {
                $0.dataLoader = loader
                $0.dataCache = nil
            }
        }
        let firstCache = DataCache(path: directory)
        let first = try await makePipeline(firstCache).image(for: ImageRequest(url: server.url("/photo.png")))
        firstCache.flush()
        let second = try await makePipeline(DataCache(path: directory)).image(
            for: ImageRequest(url: server.url("/photo.png")))
        #expect(first.width == 40 && second.width == 40)
        #expect(server.requestCount(for: "/photo.png") == 1)
    }
}
