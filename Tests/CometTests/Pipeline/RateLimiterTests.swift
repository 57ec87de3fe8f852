import Foundation
import Testing
import Synchronization
@testable import Comet
import CometTestSupport

@Suite("Rate limiter", .timeLimit(.minutes(1)))
struct RateLimiterTests {
    let queue = DispatchQueue(label: "test.coordinator")

    /// Runs `body` on the coordinator queue and waits for it.
    func onCoordinator<T>(_ body: () -> T) -> T { queue.sync(execute: body) }

    @Test func burstPassesAtOnce() {
        let limiter = RateLimiter(rate: 10, burst: 5, queue: queue)
        let ran = onCoordinator { () -> Int in
            var count = 0
            for _ in 0..<5 { limiter.execute { count += 1; return true } }
            return count
        }
        #expect(ran == 5)
    }

    @Test func workOverTheRateIsDelayedNotDropped() async {
        let limiter = RateLimiter(rate: 50, burst: 2, queue: queue)
        let ran = Locked(0)
        queue.sync {
            for _ in 0..<6 { limiter.execute { ran.withLock { $0 += 1 }; return true } }
        }
        #expect(ran.withLock { $0 } == 2)
        #expect(await eventually(within: 2) { ran.withLock { $0 } == 6 })
    }

    @Test func cancelledWorkSpendsNoToken() async {
        let limiter = RateLimiter(rate: 20, burst: 1, queue: queue)
        let ran = Locked<[String]>([])
        queue.sync {
            limiter.execute { ran.withLock { $0.append("first") }; return true }
            limiter.execute { false } // cancelled while waiting
            limiter.execute { ran.withLock { $0.append("second") }; return true }
        }
        // One token refills in 50 ms: "second" gets it, because the cancelled item spent none.
        #expect(await eventually(within: 2) { ran.withLock { $0 } == ["first", "second"] })
    }
}
