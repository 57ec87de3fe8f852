import AlamofireImageCompat
import CometTestSupport
import FlyingFox
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ImageDownloader", .timeLimit(.minutes(10)))
struct ImageDownloaderTests {
    /// The loopback server every test downloads from, and the recorder of its completions.
    let server: AFIServer
    let recorder = Recorder<Completion>()

    init() async throws { server = try await AFIServer.start() }

    @Test func downloadsOneImage() async throws {
        let url = server.serve(TestImages.png(width: 40, height: 30), at: "one.png")
        let receipt = ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: URLRequest(url: url), completion: recorder.handler())
        #expect(receipt != nil)
        #expect(await eventually { recorder.count == 1 })
        let completion = try #require(recorder.values.first)
        #expect(completion.image?.width == 40 && completion.image?.height == 30)
        #expect(completion.response.response?.statusCode == 200)
        #expect(completion.response.data?.isEmpty == false)
        #expect(completion.response.request?.url == url)
    }

    @Test func downloadsTwoImagesAtOnce() async throws {
        let gate = Gate()
        let first = server.serve(TestImages.png(), at: "a.png", after: gate)
        let second = server.serve(TestImages.png(), at: "b.png", after: gate)
        let downloader = ImageDownloader(imageCache: nil)
        let receipts = [first, second].compactMap {
            downloader.downloadImage(URLRequest: $0, completion: recorder.handler())
        }
        #expect(receipts.allSatisfy { $0.request.task.state == .running })
        gate.release()
        #expect(await eventually { recorder.count == 2 })
        #expect(recorder.values.allSatisfy { $0.image != nil })
    }

    @Test func downloadImagesReturnsAReceiptPerRequestAndCompletesEach() async throws {
        let urls = (0..<3).map { server.serve(TestImages.png(), at: "many\($0).png") }
        let receipts = ImageDownloader(imageCache: nil).downloadImages(
            URLRequests: urls, completion: recorder.handler())
        #expect(receipts.count == 3)
        #expect(Set(receipts.map(\.receiptID)).count == 3)
        #expect(await eventually { recorder.count == 3 })
        #expect(recorder.values.allSatisfy { $0.image != nil })
    }

    @Test func neverRunsMoreThanMaximumActiveDownloads() async throws {
        let concurrency = ConcurrencyProbe()
        let urls = (0..<4).map { index in
            let path = "/probe/\(index)"
            server.server.handle(path) { _ in try await concurrency.measure() }
            return server.server.url(path)
        }
        let downloader = ImageDownloader(maximumActiveDownloads: 1, imageCache: nil)
        downloader.downloadImages(URLRequests: urls, completion: recorder.handler())
        #expect(await eventually { recorder.count == 4 })
        #expect(recorder.values.allSatisfy { $0.image != nil })
        #expect(concurrency.maximum == 1)
    }

    @Test func callsCompletionWithTheResponseWhenTheBodyIsNotAnImage() async throws {
        let url = server.serve(Data(#"{"key":"value"}"#.utf8), at: "data.json", contentType: "application/json")
        ImageDownloader(imageCache: nil).downloadImage(URLRequest: URLRequest(url: url), completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        let completion = try #require(recorder.values.first)
        #expect(completion.response.result.isFailure)
        #expect(completion.response.response?.statusCode == 200)
        #expect(completion.error?.code == NSURLErrorCannotDecodeContentData)
    }

    @Test func failsWithTheStatusForAMissingImage() async throws {
        ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: URLRequest(url: server.server.url("/status/404")),
            completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        let error = try #require(recorder.values.first?.error)
        #expect(error.domain == "com.alamofire.error" && error.code == -6003)
        #expect(error.userInfo["StatusCode"] as? Int == 404)
    }

    @Test func appliesTheFilter() async throws {
        let url = server.serve(TestImages.png(width: 64, height: 48), at: "filtered.png")
        ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: URLRequest(url: url),
            filter: ScaledToSizeFilter(size: CGSize(width: 20, height: 10)),
            completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        let image = try #require(recorder.values.first?.image)
        #expect(image.width == 20 && image.height == 10)
    }

    @Test func secondCallerWithAnotherFilterJoinsTheSameDownload() async throws {
        let gate = Gate()
        let url = server.serve(TestImages.png(width: 64, height: 48), at: "joined.png", after: gate)
        let downloader = ImageDownloader(imageCache: nil)
        let first = downloader.downloadImage(
            URLRequest: url, filter: CircleFilter(), completion: recorder.handler("circle"))
        let second = downloader.downloadImage(
            URLRequest: url.absoluteString, filter: ScaledToSizeFilter(size: CGSize(width: 10, height: 10)),
            completion: recorder.handler("scaled"))
        #expect(first?.request === second?.request)
        #expect(first?.receiptID != second?.receiptID)
        gate.release()
        #expect(await eventually { recorder.count == 2 })
        let byTag = Dictionary(uniqueKeysWithValues: recorder.values.map { ($0.tag, $0) })
        #expect(byTag["circle"]?.image?.width == 48)
        #expect(byTag["scaled"]?.image?.width == 10)
        #expect(server.requestCount(for: url) == 1)
    }

    @Test func callersOfOneDownloadWithBlursOfDifferentRadiiGetDifferentImages() async throws {
        let gate = Gate()
        let url = server.serve(TestImages.png(width: 64, height: 48), at: "blurred.png", after: gate)
        let cache = AutoPurgingImageCache()
        let downloader = ImageDownloader(imageCache: cache)
        downloader.downloadImage(
            URLRequest: url, filter: BlurFilter(blurRadius: 1), completion: recorder.handler("light"))
        downloader.downloadImage(
            URLRequest: url, filter: BlurFilter(blurRadius: 6), completion: recorder.handler("heavy"))
        gate.release()
        #expect(await eventually { recorder.count == 2 })
        let byTag = Dictionary(uniqueKeysWithValues: recorder.values.map { ($0.tag, $0) })
        let light = try #require(byTag["light"]?.image)
        let heavy = try #require(byTag["heavy"]?.image)
        #expect(light != heavy, "each caller gets the blur it asked for")
        let request = URLRequest(url: url)
        #expect(cache.imageForRequest(request, withAdditionalIdentifier: BlurFilter(blurRadius: 1).identifier) == light)
        #expect(cache.imageForRequest(request, withAdditionalIdentifier: BlurFilter(blurRadius: 6).identifier) == heavy)
        #expect(server.requestCount(for: url) == 1)
    }

    @Test func runsEachFilterIdentifierOnce() async throws {
        let gate = Gate()
        let url = server.serve(TestImages.png(), at: "dupfilter.png", after: gate)
        let probe = FilterProbe()
        let downloader = ImageDownloader(imageCache: nil)
        for _ in 0..<3 {
            downloader.downloadImage(URLRequest: url, filter: probe.filter("same-id"), completion: recorder.handler())
        }
        gate.release()
        #expect(await eventually { recorder.count == 3 })
        #expect(probe.runCount == 1)
        #expect(recorder.values.allSatisfy { $0.image?.width == 8 })
    }

    @Test func neverRunsFiltersOnTheMainThreadAndAlwaysCompletesOnIt() async throws {
        let url = server.serve(TestImages.png(), at: "threads.png")
        let probe = FilterProbe()
        let downloader = ImageDownloader(imageCache: nil)
        downloader.downloadImage(URLRequest: url, filter: probe.filter("threads"), completion: recorder.handler())
        downloader.downloadImage(URLRequest: server.server.url("/status/500"), completion: recorder.handler())
        #expect(await eventually { recorder.count == 2 })
        #expect(probe.runCount == 1 && !probe.everRanOnMain)
        #expect(recorder.values.allSatisfy { $0.onMainThread })
    }

    @Test func reportsProgressOnTheMainQueueByDefault() async throws {
        let url = server.serve(TestImages.png(width: 200, height: 200), at: "progress.png")
        let progress = Recorder<(Int64, Int64, Int64, Bool)>()
        ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: url,
            progress: { read, total, expected in
                progress.append((read, total, expected, isOnMainQueue()))
            }, completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        let bytes = try #require(recorder.values.first?.response.data?.count)
        #expect(await eventually { progress.values.last?.1 == Int64(bytes) })
        #expect(!progress.values.isEmpty && progress.values.allSatisfy { $0.3 })
        #expect(progress.values.allSatisfy { $0.2 == $0.1 || $0.2 > $0.1 })
    }

    @Test func reportsProgressOnTheGivenQueue() async throws {
        let url = server.serve(TestImages.png(width: 100, height: 100), at: "progressq.png")
        let queue = DispatchQueue(label: "progress")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Recorder<Bool>()
        ImageDownloader(imageCache: nil).downloadImage(
            URLRequest: url,
            progress: { _, _, _ in
                onQueue.append(DispatchQueue.getSpecific(key: key) == true)
            }, progressQueue: queue, completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 && !onQueue.values.isEmpty })
        #expect(onQueue.values.allSatisfy { $0 })
    }
}

/// Counts requests in flight on the server, to see the downloader's limit from outside.
final class ConcurrencyProbe: @unchecked Sendable {
    // `current` and `peak` are only touched under `lock`.
    private let lock = NSLock()
    private var current = 0
    private var peak = 0
    var maximum: Int { lock.withLock { peak } }

    func measure() async throws -> FlyingFox.HTTPResponse {
        lock.withLock {
            current += 1; peak = max(peak, current)
        }
        try await Task.sleep(for: .milliseconds(40))
        lock.withLock { current -= 1 }
        return HTTPResponse(
            statusCode: .ok, headers: [HTTPHeader("Content-Type"): "image/png"],
            body: TestImages.png(width: 4, height: 4))
    }
}
