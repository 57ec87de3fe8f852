import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// The default loader on libcurl's multi interface, through a real server on 127.0.0.1: where
/// its callbacks run, how a body is delivered, what a cancel guarantees, and what it sends.
@Suite("DataLoader transfers", .timeLimit(.minutes(10)))
struct DataLoaderTransferTests {
    /// One server for the suite (each test on paths of its own): a live server holds a Dispatch
    /// thread, and the parallel suite must stay under libdispatch's 255.
    private static let shared = SharedTestServer()

    @Test func callbacksRunOnTheLoadersThread() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 7, count: 200_000), at: "callbacksRunOnTheLoadersThread-big.bin")
        let names = Locked<[String?]>([])
        let result = await LoaderProbe.load(DataLoader(), server.imageURL("callbacksRunOnTheLoadersThread-big.bin")) {
            _ in
            names.withLock { $0.append(Thread.current.name) }
        }
        #expect(result.error == nil)
        #expect(result.count == 200_000)
        let seen = names.withLock { $0 }
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == "comet.curl" }, "\(Set(seen))")
    }

    @Test func aBatchedBodyThatArrivesAtOnceIsDeliveredWholeOnce() async throws {
        let server = try await Self.shared.server
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        server.serve(body, at: "aBatchedBodyThatArrivesAtOnceIsDeliveredWholeOnce-big.bin")
        let received = Locked(Data())
        let result = await LoaderProbe.load(
            DataLoader(), server.imageURL("aBatchedBodyThatArrivesAtOnceIsDeliveredWholeOnce-big.bin"),
            delivery: .batched
        ) { data in
            received.withLock { $0.append(data) }
        }
        #expect(result.error == nil)
        #expect(result.chunks == 1)
        #expect(received.withLock { $0 } == body)
    }

    @Test func eachChunkDeliversTheBodyAsItArrives() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 3, count: 8_000), at: "eachChunkDeliversTheBodyAsItArrives-drip.bin")
        let result = await LoaderProbe.load(
            DataLoader(), server.url("/drip/eachChunkDeliversTheBodyAsItArrives-drip.bin?chunk=1000&interval=20"),
            delivery: .eachChunk)
        #expect(result.error == nil)
        #expect(result.count == 8_000)
        #expect(result.chunks >= 4)
    }

    @Test func aBatchedBodyArrivingSlowlyIsPassedOnBeforeItEnds() async throws {
        let server = try await Self.shared.server
        let body = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0) })
        server.serve(body, at: "aBatchedBodyArrivingSlowlyIsPassedOnBeforeItEnds-slow.bin")
        let received = Locked(Data())
        // 20 KB, 1 KB every 50 ms: about a second, so the 0.1 s batches come in several pieces.
        let result = await LoaderProbe.load(
            DataLoader(),
            server.url("/drip/aBatchedBodyArrivingSlowlyIsPassedOnBeforeItEnds-slow.bin?chunk=1000&interval=50"),
            delivery: .batched
        ) { data in received.withLock { $0.append(data) } }
        #expect(result.error == nil)
        #expect(result.chunks >= 3 && result.chunks < 20)
        #expect(received.withLock { $0 } == body)
    }

    @Test func anEmptyBodyStillBringsItsResponse() async throws {
        let server = try await Self.shared.server
        server.serve(Data(), at: "anEmptyBodyStillBringsItsResponse-empty.bin")
        for delivery in [DataDelivery.batched, .eachChunk] {
            let result = await LoaderProbe.load(
                DataLoader(), server.imageURL("anEmptyBodyStillBringsItsResponse-empty.bin"), delivery: delivery)
            #expect(result.error == nil)
            #expect(result.chunks == 1 && result.count == 0)
            #expect((result.response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test func theResponseCarriesTheStatusTheHeadersAndTheURLAfterRedirects() async throws {
        let server = try await Self.shared.server
        server.serve(
            Data(repeating: 1, count: 500),
            at: "theResponseCarriesTheStatusTheHeadersAndTheURLAfterRedirects-target.bin")
        let result = await LoaderProbe.load(
            DataLoader(),
            server.url("/redirect/2/theResponseCarriesTheStatusTheHeadersAndTheURLAfterRedirects-target.bin"))
        let response = try #require(result.response as? HTTPURLResponse)
        #expect(response.statusCode == 200)
        #expect(
            response.url == server.imageURL("theResponseCarriesTheStatusTheHeadersAndTheURLAfterRedirects-target.bin"))
        #expect(response.value(forHTTPHeaderField: "content-type") == "image/*")
        #expect(response.expectedContentLength == 500)
    }

    @Test func aGzipEncodedBodyArrivesDecoded() async throws {
        let server = try await Self.shared.server
        let gzipped: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 255, 75, 206, 207, 77, 45, 81, 72, 30, 37, 137, 32, 1, 209, 0, 82, 10,
            44, 1, 0, 0,
        ]
        let accepted = Locked<String?>(nil)
        server.handle("/aGzipEncodedBodyArrivesDecoded-gzip") { request in
            accepted.withLock { $0 = request.headers[HTTPHeader("Accept-Encoding")] }
            return HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Encoding"): "gzip"], body: Data(gzipped))
        }
        let received = Locked(Data())
        let result = await LoaderProbe.load(
            DataLoader(), server.url("/aGzipEncodedBodyArrivesDecoded-gzip"), delivery: .batched
        ) { data in
            received.withLock { $0.append(data) }
        }
        #expect(result.error == nil)
        #expect(received.withLock { $0 } == Data(String(repeating: "comet ", count: 50).utf8))
        #expect(accepted.withLock { $0 }?.contains("gzip") == true)
    }

    @Test func additionalHeadersAreSentUnlessTheRequestSetsThem() async throws {
        let server = try await Self.shared.server
        let seen = Locked<[(String?, String?)]>([])
        server.handle("/additionalHeadersAreSentUnlessTheRequestSetsThem-headers") { request in
            seen.withLock { $0.append((request.headers[HTTPHeader("X-App")], request.headers[HTTPHeader("X-Extra")])) }
            return HTTPResponse(statusCode: .ok, body: Data([1]))
        }
        var configuration = DataLoader.Configuration()
        configuration.additionalHeaders = ["X-App": "comet", "X-Extra": "yes"]
        let loader = DataLoader(configuration: configuration)
        _ = await LoaderProbe.load(loader, server.url("/additionalHeadersAreSentUnlessTheRequestSetsThem-headers"))
        var own = URLRequest(url: server.url("/additionalHeadersAreSentUnlessTheRequestSetsThem-headers"))
        own.setValue("mine", forHTTPHeaderField: "x-app")
        _ = await LoaderProbe.load(loader, own)
        let values = seen.withLock { $0 }
        #expect(values.count == 2)
        #expect(values.first?.0 == "comet" && values.first?.1 == "yes")
        #expect(values.last?.0 == "mine" && values.last?.1 == "yes")
    }

    @Test func aLoadStartedFromACompletionHandlerCompletes() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 1, count: 10_000), at: "aLoadStartedFromACompletionHandlerCompletes-a.bin")
        server.serve(Data(repeating: 2, count: 20_000), at: "aLoadStartedFromACompletionHandlerCompletes-b.bin")
        let loader = DataLoader()
        let second = Locked<DataLoadingTask?>(nil)
        let secondResult: LoaderProbe.Result = await withCheckedContinuation { continuation in
            _ = loader.loadData(
                with: URLRequest(url: server.imageURL("aLoadStartedFromACompletionHandlerCompletes-a.bin")),
                didReceiveData: { _, _ in },
                completion: { _ in
                    let collected = Locked(LoaderProbe.Result())
                    second.withLock {
                        $0 = loader.loadData(
                            with: URLRequest(url: server.imageURL("aLoadStartedFromACompletionHandlerCompletes-b.bin")),
                            didReceiveData: { data, _ in collected.withLock { $0.count += data.count } },
                            completion: { error in
                                continuation.resume(returning: collected.withLock { $0.ending(with: error) })
                            })
                    }
                })
        }
        #expect(secondResult.error == nil)
        #expect(secondResult.count == 20_000)
    }

    @Test func aLoadCancelledFromInsideACallbackEndsWithCancellation() async throws {
        let server = try await Self.shared.server
        server.serve(
            Data(repeating: 1, count: 10_000), at: "aLoadCancelledFromInsideACallbackEndsWithCancellation-a.bin")
        server.serve(
            Data(repeating: 3, count: 40_000), at: "aLoadCancelledFromInsideACallbackEndsWithCancellation-slow.bin")
        let loader = DataLoader()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            let slow = loader.loadData(
                with: URLRequest(
                    url: server.url(
                        "/drip/aLoadCancelledFromInsideACallbackEndsWithCancellation-slow.bin?chunk=1000&interval=50")),
                didReceiveData: { _, _ in }, completion: { continuation.resume(returning: $0) })
            _ = loader.loadData(
                with: URLRequest(url: server.imageURL("aLoadCancelledFromInsideACallbackEndsWithCancellation-a.bin")),
                didReceiveData: { _, _ in slow.cancel() },
                completion: { _ in })
        }
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test func noDataArrivesAfterCancelReturns() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 3, count: 40_000), at: "noDataArrivesAfterCancelReturns-slow.bin")
        let cancelled = Locked(false)
        let lateChunks = Locked(0)
        let firstChunk = AsyncStream<Void>.makeStream()
        let ended = AsyncStream<(any Error)?>.makeStream()
        let loader = DataLoader()
        let task = loader.loadData(
            with: URLRequest(url: server.url("/drip/noDataArrivesAfterCancelReturns-slow.bin?chunk=1000&interval=20")),
            delivery: .eachChunk,
            didReceiveData: { _, _ in
                if cancelled.withLock({ $0 }) { lateChunks.withLock { $0 += 1 } }
                firstChunk.continuation.yield()
            },
            completion: { ended.continuation.yield($0) })
        for await _ in firstChunk.stream { break }
        task.cancel()
        cancelled.withLock { $0 = true }
        var error: (any Error)?
        for await ending in ended.stream {
            error = ending
            break
        }
        // Give a straggling chunk the time to show up if it were going to.
        try await Task.sleep(for: .milliseconds(200))
        #expect((error as? URLError)?.code == .cancelled)
        #expect(lateChunks.withLock { $0 } <= 1)  // at most the one already being delivered
        withExtendedLifetime(loader) {}
    }

    @Test func aThousandConcurrentLoadsHalfCancelledEachCompleteOnceAndAreReleased() async throws {
        let server = try await Self.shared.server
        server.serve(
            Data(repeating: 9, count: 4_000),
            at: "aThousandConcurrentLoadsHalfCancelledEachCompleteOnceAndAreReleased-a.bin")
        let loader = DataLoader()
        let completions = Locked<[Int: Int]>([:])
        let afterCompletion = Locked(0)
        let released = Locked<[WeakTask]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Locked(1000)
            for index in 0..<1000 {
                let finished = Locked(false)
                let task = loader.loadData(
                    with: URLRequest(
                        url: server.url(
                            "/images/aThousandConcurrentLoadsHalfCancelledEachCompleteOnceAndAreReleased-a.bin?n=\(index)"
                        )), delivery: .batched,
                    didReceiveData: { _, _ in if finished.withLock({ $0 }) { afterCompletion.withLock { $0 += 1 } } },
                    completion: { _ in
                        finished.withLock { $0 = true }
                        completions.withLock { $0[index, default: 0] += 1 }
                        if remaining.withLock({
                            $0 -= 1; return $0
                        }) == 0 {
                            done.resume()
                        }
                    })
                released.withLock { $0.append(WeakTask(task as AnyObject)) }
                if index % 2 == 1 { task.cancel() }
            }
        }
        let counts = completions.withLock { $0 }
        #expect(counts.count == 1000 && counts.values.allSatisfy { $0 == 1 })
        #expect(afterCompletion.withLock { $0 } == 0)
        #expect(await eventually { released.withLock { $0.allSatisfy { $0.object == nil } } })
    }

    @Test func connectionsAreReusedAcrossLoadsAndBursts() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 9, count: 50_000), at: "connectionsAreReusedAcrossLoadsAndBursts-a.bin")
        let loader = DataLoader()
        // Bursts of 6, with quiet moments between them when only one load or none runs.
        for round in 0..<8 {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let result = await LoaderProbe.load(
                            loader,
                            server.url("/images/connectionsAreReusedAcrossLoadsAndBursts-a.bin?r=\(round)&i=\(index)"))
                        #expect(result.error == nil && result.count == 50_000)
                    }
                }
            }
        }
        #expect(loader.connectionsOpened <= 6, "\(loader.connectionsOpened) connections for 48 loads")
    }

    @Test func aResponsesCookieIsNotSentWithTheNextRequest() async throws {
        let (server, cookiesSeen) = try await LoaderProbe.cookieSettingServer(
            on: Self.shared.server, path: "/aResponsesCookieIsNotSentWithTheNextRequest-cookie")
        let loader = DataLoader()
        for _ in 0..<2 {
            #expect(
                await LoaderProbe.load(loader, server.url("/aResponsesCookieIsNotSentWithTheNextRequest-cookie")).error
                    == nil)
        }
        #expect(cookiesSeen.withLock { $0 } == [nil, nil])
    }

    @Test func aRequestsOwnCookieHeaderIsSentAsItIs() async throws {
        let (server, cookiesSeen) = try await LoaderProbe.cookieSettingServer(
            on: Self.shared.server, path: "/aRequestsOwnCookieHeaderIsSentAsItIs-cookie")
        let loader = DataLoader()
        var request = URLRequest(url: server.url("/aRequestsOwnCookieHeaderIsSentAsItIs-cookie"))
        request.setValue("token=1", forHTTPHeaderField: "Cookie")
        _ = await LoaderProbe.load(loader, request)
        _ = await LoaderProbe.load(loader, request)
        #expect(cookiesSeen.withLock { $0 } == ["token=1", "token=1"])
    }

    @Test func aLoadThatOutlivesItsResourceTimeoutFails() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 3, count: 40_000), at: "aLoadThatOutlivesItsResourceTimeoutFails-slow.bin")
        var configuration = DataLoader.Configuration()
        configuration.timeoutForResource = 0.5
        let start = ContinuousClock.now
        // Bytes keep coming every 1.5 s (the request timeout never fires), but the whole body
        // takes about 60 s: a load that ends well before that was ended by the 0.5 s limit. The
        // bound is 60× the limit, so a loaded machine cannot reach it, and it still fails if the
        // load waited for the whole body.
        let result = await LoaderProbe.load(
            DataLoader(configuration: configuration),
            server.url("/drip/aLoadThatOutlivesItsResourceTimeoutFails-slow.bin?chunk=1000&interval=1500"))
        #expect((result.error as? URLError)?.code == .timedOut)
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func aBodyWithoutALengthFailsWhenItPassesTheSizeLimit() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 4, count: 200_000), at: "aBodyWithoutALengthFailsWhenItPassesTheSizeLimit-big.bin")
        var configuration = DataLoader.Configuration()
        configuration.maximumResponseDataSize = 50_000
        let result = await LoaderProbe.load(
            DataLoader(configuration: configuration),
            server.url("/chunked/aBodyWithoutALengthFailsWhenItPassesTheSizeLimit-big.bin"))
        #expect(result.error as? DataLoaderError == .responseTooLarge(limit: 50_000))
        #expect(result.count <= 50_000)
    }

    @Test func aChunkedBodyWithinTheLimitLoadsWhole() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 4, count: 200_000), at: "aChunkedBodyWithinTheLimitLoadsWhole-big.bin")
        let result = await LoaderProbe.load(
            DataLoader(), server.url("/chunked/aChunkedBodyWithinTheLimitLoadsWhole-big.bin"), delivery: .batched)
        #expect(result.error == nil)
        #expect(result.count == 200_000)
    }

    @Test func aReleasedLoaderCancelsWhatItStillRuns() async throws {
        let server = try await Self.shared.server
        server.serve(Data(repeating: 3, count: 40_000), at: "aReleasedLoaderCancelsWhatItStillRuns-slow.bin")
        let ended = AsyncStream<(any Error)?>.makeStream()
        do {
            let loader = DataLoader()
            _ = loader.loadData(
                with: URLRequest(
                    url: server.url("/drip/aReleasedLoaderCancelsWhatItStillRuns-slow.bin?chunk=1000&interval=50")),
                didReceiveData: { _, _ in }, completion: { ended.continuation.yield($0) })
        }
        var error: (any Error)?
        for await ending in ended.stream {
            error = ending
            break
        }
        #expect((error as? URLError)?.code == .cancelled)
    }
}

/// A weak reference to a load's task (to check that finished loads are released).
private struct WeakTask: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
