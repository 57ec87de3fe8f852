import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ImageDownloader cache and queue", .timeLimit(.minutes(10)))
struct ImageDownloaderCacheTests {
    @Test func answersFromTheCacheWithoutAReceiptWhenThePolicyAllows() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(width: 30, height: 20), at: "cached.png")
        let downloader = ImageDownloader()
        let recorder = Recorder<Completion>()
        #expect(downloader.downloadImage(URLRequest: url, completion: recorder.handler("network")) != nil)
        #expect(await eventually { recorder.count == 1 })
        // Called on the main actor: a synchronous completion would be recorded before `run` returns.
        let (cached, countOnReturn) = await MainActor.run {
            (downloader.downloadImage(URLRequest: url, completion: recorder.handler("cache")), recorder.count)
        }
        #expect(cached == nil)
        #expect(countOnReturn == 1, "the cached completion comes asynchronously")
        #expect(await eventually { recorder.count == 2 })
        let hit = recorder.values[1]
        #expect(hit.image?.width == 30 && hit.response.response == nil && hit.onMainThread)
        #expect(server.requestCount(for: url) == 1)
    }

    @Test func reloadIgnoringLocalCacheDataDownloadsAgain() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "reload.png")
        let downloader = ImageDownloader()
        let recorder = Recorder<Completion>()
        downloader.downloadImage(URLRequest: url, completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        var reload = URLRequest(url: url)
        reload.cachePolicy = .reloadIgnoringLocalCacheData
        #expect(downloader.downloadImage(URLRequest: reload, completion: recorder.handler()) != nil)
        #expect(await eventually { recorder.count == 2 })
        #expect(server.requestCount(for: url) == 2)
    }

    @Test func storesTheFilteredImageUnderTheFilterIdentifier() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(width: 64, height: 48), at: "filtercache.png")
        let cache = AutoPurgingImageCache()
        let filter = AspectScaledToFillSizeFilter(size: CGSize(width: 16, height: 16))
        let recorder = Recorder<Completion>()
        ImageDownloader(imageCache: cache).downloadImage(
            URLRequest: url, filter: filter, completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        let stored = try #require(
            cache.imageWithIdentifier("\(url.absoluteString)-AspectScaledToFillSizeFilter-size:(16x16)"))
        #expect(stored.width == 16 && stored.height == 16)
        #expect(cache.imageForRequest(URLRequest(url: url), withAdditionalIdentifier: nil) == nil)
    }

    @Test func startsQueuedDownloadsFirstInFirstOut() async throws {
        #expect(try await completionOrder(.FIFO) == ["q0", "q1", "q2"])
    }

    @Test func startsQueuedDownloadsLastInFirstOut() async throws {
        #expect(try await completionOrder(.LIFO) == ["q2", "q1", "q0"])
    }

    /// One slot, held by a gated download; three more queue behind it in order q0, q1, q2.
    private func completionOrder(_ order: ImageDownloader.DownloadPrioritization) async throws -> [String] {
        let server = try await AFIServer.start()
        let gate = Gate()
        let blocker = server.serve(TestImages.png(), at: "blocker-\(order).png", after: gate)
        let downloader = ImageDownloader(downloadPrioritization: order, maximumActiveDownloads: 1, imageCache: nil)
        let recorder = Recorder<Completion>()
        downloader.downloadImage(URLRequest: blocker, completion: recorder.handler("blocker"))
        var receipts: [RequestReceipt] = []
        for index in 0..<3 {
            let url = server.serve(TestImages.png(), at: "q\(index)-\(order).png")
            receipts += [downloader.downloadImage(URLRequest: url, completion: recorder.handler("q\(index)"))]
                .compactMap { $0 }
        }
        #expect(receipts.allSatisfy { $0.request.task.state == .suspended })
        gate.release()
        #expect(await eventually { recorder.count == 4 })
        return recorder.values.map(\.tag).filter { $0 != "blocker" }
    }
}
