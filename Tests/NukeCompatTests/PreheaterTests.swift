import Foundation
import Testing
import NukeCompat
import CometTestSupport

@Suite("PreheaterTests", .timeLimit(.minutes(10)))
struct PreheaterTests {
    func request(_ name: String) -> Request { Request(url: URL(string: "http://example.com/\(name)")!) }

    @Test func startThenStopCancelsTheLoad() async {
        let loader = MockImageLoader(holdsLoads: true)
        let preheater = Preheater(loader: loader)
        preheater.startPreheating(with: [request("a")])
        #expect(await eventually { loader.calls.count == 1 })
        preheater.stopPreheating(with: [request("a")])
        #expect(loader.calls[0].token?.isCancelling == true)
    }

    @Test func equivalentRequestsMakeOneTaskStoppedByOneCall() async {
        let loader = MockImageLoader(holdsLoads: true)
        let preheater = Preheater(loader: loader)
        preheater.startPreheating(with: [request("a"), request("a")])
        preheater.startPreheating(with: [request("a")])
        #expect(await eventually { loader.calls.count == 1 })
        await pause(milliseconds: 100)
        #expect(loader.calls.count == 1)
        preheater.stopPreheating(with: [request("a")])
        #expect(loader.calls[0].token?.isCancelling == true)
    }

    @Test func stopPreheatingStopsAll() async {
        let loader = MockImageLoader(holdsLoads: true)
        let preheater = Preheater(loader: loader, scheduler: OperationQueueScheduler(maxConcurrentOperationCount: 5))
        preheater.startPreheating(with: [request("a"), request("b")])
        #expect(await eventually { loader.calls.count == 2 })
        preheater.stopPreheating()
        #expect(loader.calls.allSatisfy { $0.token?.isCancelling == true })
    }

    @Test func atMostTwoAtOnceByDefault() async {
        let loader = MockImageLoader(holdsLoads: true)
        let preheater = Preheater(loader: loader)
        preheater.startPreheating(with: [request("a"), request("b"), request("c")])
        #expect(await eventually { loader.calls.count == 2 })
        await pause(milliseconds: 100)
        #expect(loader.calls.count == 2)
        preheater.stopPreheating(with: [request("a")])
        #expect(await eventually { loader.calls.count == 3 })
        #expect(loader.calls[2].url?.lastPathComponent == "c")
    }

    @Test func aReleasedPreheaterStopsWhatItWasPreheating() async {
        let loader = MockImageLoader(holdsLoads: true)
        do {
            let preheater = Preheater(loader: loader)
            preheater.startPreheating(with: [request("a")])
            #expect(await eventually { loader.calls.count == 1 })
        }
        #expect(await eventually { loader.calls.first?.token?.isCancelling == true })
    }

    @Test func stoppedBeforeStartingNeverLoads() async {
        let loader = MockImageLoader(holdsLoads: true)
        let preheater = Preheater(loader: loader, scheduler: OperationQueueScheduler(maxConcurrentOperationCount: 1))
        preheater.startPreheating(with: [request("a"), request("b")])
        preheater.stopPreheating(with: [request("b")])
        preheater.stopPreheating(with: [request("a")])
        await pause(milliseconds: 200)
        #expect(!loader.calls.contains { $0.url?.lastPathComponent == "b" })
    }

    @Test func preheatedImagesLandInTheMemoryCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "a.png")
        let cache = Cache()
        let preheater = Preheater(loader: makeLoader(cache: cache))
        let request = Request(url: server.imageURL("a.png"))
        preheater.startPreheating(for: [request])
        #expect(await eventually { cache[request] != nil })
    }
}
