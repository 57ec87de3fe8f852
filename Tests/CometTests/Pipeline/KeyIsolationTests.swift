import Foundation
import Testing
@testable import Comet
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests that differ in what changes their result never share a download or a cached
/// result; requests that differ only in where their bytes may come from never share a job.
@Suite("KeyIsolation", .timeLimit(.minutes(10)))
struct KeyIsolationTests {
    let url = URL(string: "https://example.com/me/avatar.png")!

    /// Answers a 10-pixel-wide image to Alice and a 20-pixel-wide one to anyone else.
    let loader = MockDataLoader { request in
        .success(
            TestImages.png(width: request.value(forHTTPHeaderField: "Authorization") == "alice" ? 10 : 20, height: 4))
    }

    func request(authorization: String?, headerName: String = "Authorization") -> ImageRequest {
        var urlRequest = URLRequest(url: url)
        if let authorization { urlRequest.setValue(authorization, forHTTPHeaderField: headerName) }
        return ImageRequest(urlRequest: urlRequest)
    }

    @Test func concurrentRequestsWithDifferentCredentialsEachGetTheirOwnImage() async throws {
        let pipeline = ImagePipeline.test(loader: loader)
        let (alice, bob) = await loader.holdingLoads(2) {
            (
                pipeline.imageTask(with: request(authorization: "alice")),
                pipeline.imageTask(with: request(authorization: "bob"))
            )
        }
        loader.resume()
        #expect(try await alice.image.width == 10)
        #expect(try await bob.image.width == 20)
        #expect(loader.loadCount == 2)
    }

    @Test func aResultCachedForOneCredentialIsNotFoundForAnother() async throws {
        let pipeline = ImagePipeline.test(loader: loader)
        _ = try await pipeline.image(for: request(authorization: "alice"))
        #expect(pipeline.cache[request(authorization: "alice")] != nil)
        #expect(pipeline.cache[request(authorization: "bob")] == nil)
        #expect(pipeline.cache[ImageRequest(url: url)] == nil)
        #expect(try await pipeline.image(for: request(authorization: "bob")).width == 20)
    }

    @Test func headerNameCaseDoesNotSplitEqualRequests() async throws {
        let pipeline = ImagePipeline.test(loader: loader)
        let (first, second) = await loader.holdingLoads(1) {
            (
                pipeline.imageTask(with: request(authorization: "alice")),
                pipeline.imageTask(with: request(authorization: "alice", headerName: "authorization"))
            )
        }
        loader.resume()
        _ = try await (first.image, second.image)
        #expect(loader.loadCount == 1)
    }

    @Test func anExplicitImageIDSharesAcrossHeadersAsDeclared() {
        var alice = request(authorization: "alice")
        var bob = request(authorization: "bob")
        alice.imageID = "avatar"
        bob.imageID = "avatar"
        #expect(alice.memoryCacheKey == bob.memoryCacheKey)
        #expect(request(authorization: "alice").memoryCacheKey != request(authorization: "bob").memoryCacheKey)
    }

    @Test func credentialsNeverAppearInKeys() {
        let key = request(authorization: "Bearer secret-token").dataKey
        #expect(!key.contains("secret"))
        #expect(key.hasPrefix(url.absoluteString + "#request:"))
    }

    @Test func aPlainGetKeepsItsURLAsItsKey() {
        #expect(request(authorization: nil).dataKey == url.absoluteString)
        #expect(ImageRequest(url: url).memoryCacheKey == request(authorization: nil).memoryCacheKey)
    }

    @Test func aNormalRequestDoesNotJoinACacheOnlyOne() async throws {
        let disk = GatedDataCache()
        let pipeline = ImagePipeline.test(loader: loader) { $0.dataCache = disk }
        let cacheOnly = pipeline.imageTask(with: ImageRequest(url: url, options: .returnCacheDataDontLoad))
        #expect(await eventually { disk.readsStarted == 1 })
        // The normal request does not write its bytes to the disk, so the cache-only request's
        // read (held until both are in flight, but perhaps woken late) still finds nothing.
        let normal = pipeline.imageTask(with: ImageRequest(url: url, options: .disableDiskCacheWrites))
        #expect(await eventually { disk.readsStarted == 2 }, "the normal request starts its own fetch")
        disk.open()
        await #expect(throws: ImagePipeline.Error.self) { try await cacheOnly.image }
        #expect(try await normal.image.width == 20)
    }

    @Test func aReloadDoesNotJoinAFetchThatMayReadTheDiskCache() async throws {
        let disk = GatedDataCache()
        disk.storeData(TestImages.png(width: 7, height: 4), for: url.absoluteString)
        let pipeline = ImagePipeline.test(loader: loader) { $0.dataCache = disk }
        let cached = pipeline.imageTask(with: ImageRequest(url: url))
        #expect(await eventually { disk.readsStarted == 1 })
        // The reload does not write its fresh bytes to the disk, so the other request's read
        // (held until both are in flight) finds the entry stored before.
        let reload = pipeline.imageTask(
            with: ImageRequest(url: url, options: [.reloadIgnoringCachedData, .disableDiskCacheWrites]))
        #expect(await loader.waitForLoads(1), "the reload goes to the network while the other reads the disk")
        disk.open()
        #expect(try await cached.image.width == 7)
        #expect(try await reload.image.width == 20)
    }

    @Test func aReloadedResultServesLaterPlainRequestsFromMemory() async throws {
        let pipeline = ImagePipeline.test(loader: loader)
        _ = try await pipeline.image(for: ImageRequest(url: url, options: .reloadIgnoringCachedData))
        #expect(pipeline.cache[ImageRequest(url: url)] != nil, "where the bytes came from is not part of the cache key")
        _ = try await pipeline.image(for: ImageRequest(url: url))
        #expect(loader.loadCount == 1)
    }

    @Test func differentURLCachePoliciesDoNotShareADownload() async throws {
        let pipeline = ImagePipeline.test(loader: loader)
        let (first, second) = await loader.holdingLoads(2) {
            (
                pipeline.imageTask(with: ImageRequest(urlRequest: URLRequest(url: url))),
                pipeline.imageTask(
                    with: ImageRequest(urlRequest: URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)))
            )
        }
        loader.resume()
        _ = try await (first.image, second.image)
        #expect(loader.loadCount == 2)
    }
}
