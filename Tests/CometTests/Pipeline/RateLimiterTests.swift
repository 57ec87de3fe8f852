import Locking
import Foundation
import Testing
@testable import Comet
import CometTestSupport

@Suite("Rate limiter", .timeLimit(.minutes(10)))
struct RateLimiterTests {
    let executor = PipelineExecutor()

    func limiter(rate: Double, burst: Int, scope: ImagePipeline.RateLimit.Scope = .global) -> RateLimiter {
        RateLimiter(limit: ImagePipeline.RateLimit(rate: rate, burst: burst, scope: scope), executor: executor)
    }

    /// Runs `body` in the graph and waits for it.
    func inGraph<T: Sendable>(_ body: @escaping @Sendable (borrowing GraphToken) -> T) -> T { executor.sync(body) }

    @Test func burstPassesAtOnce() {
        let limiter = limiter(rate: 10, burst: 5)
        let ran = Locked(0)
        inGraph { graph in
            for _ in 0..<5 {
                limiter.execute(host: "a", graph) { _ in
                    ran.withLock { $0 += 1 }; return true
                }
            }
        }
        #expect(ran.withLock { $0 } == 5)
    }

    @Test func workOverTheRateIsDelayedNotDropped() async {
        let limiter = limiter(rate: 50, burst: 2)
        let ran = Locked(0)
        inGraph { graph in
            for _ in 0..<6 {
                limiter.execute(host: "a", graph) { _ in
                    ran.withLock { $0 += 1 }; return true
                }
            }
        }
        #expect(ran.withLock { $0 } == 2)
        // The default wait: the parallel suite can hold the polling task for seconds.
        #expect(await eventually { ran.withLock { $0 } == 6 })
    }

    @Test func cancelledWorkSpendsNoToken() async {
        let limiter = limiter(rate: 20, burst: 1)
        let ran = Locked<[String]>([])
        inGraph { graph in
            limiter.execute(host: "a", graph) { _ in
                ran.withLock { $0.append("first") }; return true
            }
            limiter.execute(host: "a", graph) { _ in false }  // cancelled while waiting
            limiter.execute(host: "a", graph) { _ in
                ran.withLock { $0.append("second") }; return true
            }
        }
        // One token refills in 50 ms: "second" gets it, because the cancelled item spent none.
        #expect(await eventually { ran.withLock { $0 } == ["first", "second"] })
    }

    @Test func perHostBucketsDoNotSlowOtherHosts() {
        let limiter = limiter(rate: 1, burst: 2, scope: .perHost)
        let ran = Locked<[String]>([])
        inGraph { graph in
            for host in ["a", "a", "a", "b", "b", "B"] {
                limiter.execute(host: host, graph) { _ in
                    ran.withLock { $0.append(host) }; return true
                }
            }
        }
        // Host a spent its burst of 2; b's own bucket (host names compare case-insensitively)
        // let two of its three through.
        #expect(ran.withLock { $0 } == ["a", "a", "b", "b"])
    }

    @Test func globalBucketIsSharedByEveryHost() {
        let limiter = limiter(rate: 1, burst: 2, scope: .global)
        let ran = Locked<[String]>([])
        inGraph { graph in
            for host in ["a", "b", "c"] {
                limiter.execute(host: host, graph) { _ in
                    ran.withLock { $0.append(host) }; return true
                }
            }
        }
        #expect(ran.withLock { $0 } == ["a", "b"])
    }

    @Test func aPipelineHasNoRateLimitByDefault() {
        let configuration = ImagePipeline.Configuration()
        #expect(configuration.rateLimit == nil)
        #expect(!configuration.isRateLimiterEnabled)
        #expect(ImagePipeline(configuration: configuration).context.rateLimiter == nil)
        #expect(ImagePipeline.RateLimit.nukeDefault == ImagePipeline.RateLimit(rate: 80, burst: 25, scope: .global))
    }

    @Test func enablingTheLimiterSetsNukesAndDisablingRemovesIt() {
        var configuration = ImagePipeline.Configuration()
        configuration.isRateLimiterEnabled = true
        #expect(configuration.rateLimit == .nukeDefault)
        configuration.isRateLimiterEnabled = false
        #expect(configuration.rateLimit == nil)
        configuration.rateLimit = ImagePipeline.RateLimit(rate: 500, burst: 50)
        configuration.isRateLimiterEnabled = true
        #expect(configuration.rateLimit == ImagePipeline.RateLimit(rate: 500, burst: 50, scope: .perHost))
    }

    @Test func aConfiguredLimitHoldsBackStartsOverItsBurst() async throws {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.dataLoadingConcurrencyLimit = 100
            $0.rateLimit = ImagePipeline.RateLimit(rate: 0.05, burst: 3)  // the next token in 20 s
        }
        let tasks = (0..<5).map {
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://one.example/\($0).png")!))
        }
        #expect(await eventually { loader.loadCount == 3 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(loader.loadCount == 3)
        for task in tasks { task.cancel() }
    }

    /// A batch of 200 from one host starts at once by default (Nuke's 80 a second, bursts of
    /// 25, would hold 175 of them back).
    @Test func aBatchFromOneHostIsNotThrottledByDefault() async throws {
        let loader = MockDataLoader()
        loader.isSuspended = true
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = nil
            $0.dataLoadingConcurrencyLimit = 1_000
        }
        let tasks = (0..<200).map {
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://one.example/\($0).png")!))
        }
        #expect(await eventually { loader.loadCount == 200 })
        loader.resume()
        for task in tasks { _ = try await task.image }
    }
}
