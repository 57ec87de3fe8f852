import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ImageDownloader cancellation", .timeLimit(.minutes(10)))
struct ImageDownloaderCancellationTests {
    @Test func cancelledReceiptGetsMinus999WithTheRequestAndNoResponseOrData() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let url = server.serve(TestImages.png(), at: "cancel.png", after: gate)
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(imageCache: nil)
        let receipt = try #require(downloader.downloadImage(URLRequest: url, completion: recorder.handler()))
        downloader.cancelRequestForRequestReceipt(receipt)
        #expect(await eventually { recorder.count == 1 })
        gate.release()
        let completion = try #require(recorder.values.first)
        #expect(completion.error?.domain == NSURLErrorDomain && completion.error?.code == NSURLErrorCancelled)
        #expect(
            completion.error?.userInfo[NSLocalizedFailureReasonErrorKey] as? String
                == "ImageDownloader cancelled URL request: \(url.absoluteString)")
        #expect(completion.response.request?.url == url)
        #expect(completion.response.response == nil && completion.response.data == nil)
        #expect(completion.onMainThread)
    }

    @Test func cancellingAnActiveReceiptCompletesItAtOnceWhileTheDownloadContinuesForOthers() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let url = server.serve(TestImages.png(width: 12, height: 12), at: "active.png", after: gate)
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(imageCache: nil)
        let first = try #require(downloader.downloadImage(URLRequest: url, completion: recorder.handler("first")))
        downloader.downloadImage(URLRequest: url, completion: recorder.handler("second"))
        #expect(first.request.task.state == .running)
        downloader.cancelRequestForRequestReceipt(first)
        // The cancelled caller hears back while the server is still holding the response.
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.tag == "first" && recorder.values.first?.error?.code == NSURLErrorCancelled)
        #expect(first.request.task.state == .running)
        gate.release()
        #expect(await eventually { recorder.count == 2 })
        #expect(recorder.values[1].tag == "second" && recorder.values[1].image?.width == 12)
        #expect(server.requestCount(for: url) == 1)
    }

    @Test func cancellingTheOnlyReceiptOfARunningDownloadLetsItFinishUncached() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let url = server.serve(TestImages.png(), at: "uncached.png", after: gate)
        let cache = AutoPurgingImageCache()
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(imageCache: cache)
        let receipt = try #require(downloader.downloadImage(URLRequest: url, completion: recorder.handler()))
        downloader.cancelRequestForRequestReceipt(receipt)
        gate.release()
        #expect(await eventually { receipt.request.task.state == .completed })
        #expect(receipt.request.response?.statusCode == 200, "the download was not cancelled")
        try await Task.sleep(for: .milliseconds(50))
        #expect(recorder.count == 1)
        #expect(cache.memoryUsage == 0)
    }

    @Test func cancellingAQueuedDownloadRemovesItAndCancelsItsRequest() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let blocker = server.serve(TestImages.png(), at: "slot.png", after: gate)
        let queuedURL = server.serve(TestImages.png(), at: "queued.png")
        let after = server.serve(TestImages.png(), at: "after.png")
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(maximumActiveDownloads: 1, imageCache: nil)
        downloader.downloadImage(URLRequest: blocker, completion: recorder.handler("blocker"))
        let queued = try #require(
            downloader.downloadImage(URLRequest: queuedURL, completion: recorder.handler("queued")))
        downloader.downloadImage(URLRequest: after, completion: recorder.handler("after"))
        #expect(queued.request.task.state == .suspended)
        downloader.cancelRequestForRequestReceipt(queued)
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.tag == "queued" && recorder.values.first?.error?.code == NSURLErrorCancelled)
        #expect(queued.request.task.state == .completed)
        gate.release()
        #expect(await eventually { recorder.count == 3 })
        #expect(recorder.values.map(\.tag) == ["queued", "blocker", "after"])
        #expect(server.requestCount(for: queuedURL) == 0)
    }

    @Test func cancellingOneOfTwoQueuedCallersKeepsTheDownloadForTheOther() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let blocker = server.serve(TestImages.png(), at: "slot2.png", after: gate)
        let url = server.serve(TestImages.png(), at: "shared-queued.png")
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(maximumActiveDownloads: 1, imageCache: nil)
        downloader.downloadImage(URLRequest: blocker, completion: recorder.handler("blocker"))
        let first = try #require(downloader.downloadImage(URLRequest: url, completion: recorder.handler("first")))
        downloader.downloadImage(URLRequest: url, completion: recorder.handler("second"))
        downloader.cancelRequestForRequestReceipt(first)
        #expect(first.request.task.state == .suspended)
        gate.release()
        #expect(await eventually { recorder.count == 3 })
        let byTag = Dictionary(uniqueKeysWithValues: recorder.values.map { ($0.tag, $0) })
        #expect(byTag["first"]?.error?.code == NSURLErrorCancelled)
        #expect(byTag["second"]?.image != nil)
    }

    @Test func downloadCancelDownloadAgainFiveTimes() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "again.png")
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(imageCache: nil)
        for round in 0..<5 {
            let receipt = try #require(
                downloader.downloadImage(URLRequest: url, completion: recorder.handler("cancelled\(round)")))
            downloader.cancelRequestForRequestReceipt(receipt)
            downloader.downloadImage(URLRequest: url, completion: recorder.handler("kept\(round)"))
        }
        #expect(await eventually { recorder.count == 10 })
        let values = recorder.values
        #expect(values.filter { $0.tag.hasPrefix("cancelled") }.allSatisfy { $0.error?.code == NSURLErrorCancelled })
        #expect(values.filter { $0.tag.hasPrefix("kept") }.allSatisfy { $0.image != nil })
    }

    @Test func cancellingAFinishedOrRepeatedReceiptDoesNothing() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "finished.png")
        let recorder = Recorder<Completion>()
        let downloader = ImageDownloader(imageCache: nil)
        let receipt = try #require(downloader.downloadImage(URLRequest: url, completion: recorder.handler()))
        #expect(await eventually { recorder.count == 1 })
        downloader.cancelRequestForRequestReceipt(receipt)
        downloader.cancelRequestForRequestReceipt(receipt)
        try await Task.sleep(for: .milliseconds(50))
        #expect(recorder.count == 1 && recorder.values.first?.image != nil)
    }
}
