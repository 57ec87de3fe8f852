import AlamofireImageCompat
import CometTestSupport
import Dispatch
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shim claims thread safety: many threads downloading, cancelling and caching at once.
/// (Run under `make tsan` for races; here every call must still complete exactly once.)
@Suite("AlamofireImage shim under concurrent use", .timeLimit(.minutes(10)))
struct ImageDownloaderConcurrencyTests {
    @Test func concurrentDownloadsAndCancellationsEachCompleteOnce() async throws {
        let server = try await AFIServer.start()
        let urls = (0..<5).map { server.serve(TestImages.png(width: 8 + $0, height: 8), at: "c\($0).png") }
        let downloader = ImageDownloader(imageCache: nil)
        let recorder = Recorder<Completion>()
        let threads = 8, perThread = 25
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let receipt = downloader.downloadImage(
                    URLRequest: urls[(thread + index) % urls.count], completion: recorder.handler())
                if index % 3 == 0, let receipt { downloader.cancelRequestForRequestReceipt(receipt) }
            }
        }
        #expect(await eventually { recorder.count == threads * perThread })
        let outcomes = recorder.values
        #expect(outcomes.allSatisfy { $0.image != nil || $0.error?.code == NSURLErrorCancelled })
        #expect(outcomes.contains { $0.image != nil })
        for url in urls { #expect(server.requestCount(for: url) >= 1) }
    }

    @Test func theCacheStaysConsistentUnderConcurrentAddsReadsAndRemovals() {
        let cache = AutoPurgingImageCache(memoryCapacity: 40_000, preferredMemoryUsageAfterPurge: 20_000)
        let image = TestImages.image(width: 10, height: 10)  // 400 bytes
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 {
                let key = "\(thread)-\(index % 50)"
                switch index % 4 {
                case 0, 1: cache.addImage(image, withIdentifier: key)
                case 2: _ = cache.imageWithIdentifier(key)
                default: cache.removeImageWithIdentifier(key)
                }
            }
        }
        #expect(cache.memoryUsage <= cache.memoryCapacity)
        let remaining = (0..<8).flatMap { thread in (0..<50).map { "\(thread)-\($0)" } }
            .filter { cache.imageWithIdentifier($0) != nil }.count
        #expect(cache.memoryUsage == UInt64(remaining * 400), "the usage counts exactly the images held")
    }
}
