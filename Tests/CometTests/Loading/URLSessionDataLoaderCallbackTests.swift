import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Locking
import Testing
@testable import Comet
import CometTestSupport

/// URLSessionDataLoader's callbacks run on URLSession's own work queue, without a hand-off per
/// chunk, and code running in them may start and cancel loads of the same loader (which would
/// deadlock if done there synchronously). Through a real server on 127.0.0.1.
@Suite("URLSessionDataLoader callbacks", .timeLimit(.minutes(10)))
struct URLSessionDataLoaderCallbackTests {
    @Test func chunksArriveOnTheSessionsQueueWithoutAHandOff() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 7, count: 200_000), at: "big.bin")
        let loader = URLSessionDataLoader()
        let insideFlags = Locked<[Bool]>([])
        let result = await LoaderProbe.load(loader, server.imageURL("big.bin")) { _ in
            insideFlags.withLock { $0.append(SessionCallbackQueue.isInsideCall) }
        }
        #expect(result.error == nil)
        #expect(result.count == 200_000)
        let flags = insideFlags.withLock { $0 }
        #expect(!flags.isEmpty && flags.allSatisfy { $0 })
    }

    @Test func aLoadStartedFromACompletionHandlerCompletes() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 1, count: 10_000), at: "a.bin")
        server.serve(Data(repeating: 2, count: 20_000), at: "b.bin")
        let loader = URLSessionDataLoader()
        let second = Locked<DataLoadingTask?>(nil)
        let secondResult: LoaderProbe.Result = await withCheckedContinuation { continuation in
            _ = loader.loadData(
                with: URLRequest(url: server.imageURL("a.bin")), didReceiveData: { _, _ in },
                completion: { _ in
                    // Inside URLSession's work queue: the new load is made from a worker.
                    let collected = Locked(LoaderProbe.Result())
                    second.withLock {
                        $0 = loader.loadData(
                            with: URLRequest(url: server.imageURL("b.bin")),
                            didReceiveData: { data, _ in
                                collected.withLock { $0.count += data.count }
                            },
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
        let server = try await TestServer.start()
        server.serve(Data(repeating: 1, count: 10_000), at: "a.bin")
        server.serve(Data(repeating: 3, count: 40_000), at: "slow.bin")
        let loader = URLSessionDataLoader()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            // 40 KB, 1 KB every 50 ms: still loading when the other load's first chunk arrives.
            let slow = loader.loadData(
                with: URLRequest(url: server.url("/drip/slow.bin?chunk=1000&interval=50")),
                didReceiveData: { _, _ in }, completion: { continuation.resume(returning: $0) })
            _ = loader.loadData(
                with: URLRequest(url: server.imageURL("a.bin")), didReceiveData: { _, _ in slow.cancel() },
                completion: { _ in })
        }
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test func aLoadCancelledBeforeItsTaskIsMadeCompletesCancelledWithoutARequest() async throws {
        let server = try await TestServer.start()
        server.serve(Data(repeating: 1, count: 10_000), at: "a.bin")
        server.serve(Data(repeating: 2, count: 10_000), at: "never.bin")
        let loader = URLSessionDataLoader()
        let error: (any Error)? = await withCheckedContinuation { continuation in
            _ = loader.loadData(
                with: URLRequest(url: server.imageURL("a.bin")), didReceiveData: { _, _ in },
                completion: { _ in
                    // Inside the work queue the task is made later, on a worker: this cancel comes first.
                    let task = loader.loadData(
                        with: URLRequest(url: server.imageURL("never.bin")), didReceiveData: { _, _ in },
                        completion: { continuation.resume(returning: $0) })
                    task.cancel()
                })
        }
        #expect((error as? URLError)?.code == .cancelled)
        #expect(server.requestCount(for: "/images/never.bin") == 0)
    }

    @Test func aResponsesCookieIsNotSentWithTheNextRequest() async throws {
        let (server, cookiesSeen) = try await LoaderProbe.cookieSettingServer()
        let loader = URLSessionDataLoader()
        for _ in 0..<2 {
            let result = await LoaderProbe.load(loader, server.url("/cookie"))
            #expect(result.error == nil)
        }
        #expect(cookiesSeen.withLock { $0 } == [nil, nil])
    }

    @Test func aRequestsOwnCookieHeaderIsSentAsItIs() async throws {
        let (server, cookiesSeen) = try await LoaderProbe.cookieSettingServer()
        let loader = URLSessionDataLoader()
        var request = URLRequest(url: server.url("/cookie"))
        request.setValue("token=1", forHTTPHeaderField: "Cookie")
        _ = await LoaderProbe.load(loader, request)
        _ = await LoaderProbe.load(loader, request)
        #expect(cookiesSeen.withLock { $0 } == ["token=1", "token=1"])
    }
}
