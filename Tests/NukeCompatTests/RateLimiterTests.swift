import Foundation
import Testing
import NukeCompat
import CometTestSupport

/// An AsyncScheduler that runs work at once and counts it.
// Safe: the recorder is thread-safe; nothing else is stored.
final class CountingScheduler: AsyncScheduler, @unchecked Sendable {
    let started = Recorder<Int>()
    func execute(token: CancellationToken?, closure: @escaping (@escaping () -> Void) -> Void) {
        started.append(1)
        closure {}
    }
}

@Suite("RateLimiterTests", .timeLimit(.minutes(10)))
struct RateLimiterTests {
    @Test func workWithAnAlreadyCancelledTokenNeverRuns() async {
        let wrapped = CountingScheduler()
        let limiter = RateLimiter(scheduler: wrapped)
        let source = CancellationTokenSource()
        source.cancel()
        let ran = Recorder<Int>()
        limiter.execute(token: source.token) { finish in
            ran.append(1); finish()
        }
        await pause(milliseconds: 100)
        #expect(ran.count == 0 && wrapped.started.count == 0)
    }

    @Test func theDefaultsAreNukesBurstOf15AtThirtyASecond() async {
        let wrapped = CountingScheduler()
        let limiter = RateLimiter(scheduler: wrapped)
        let ran = Recorder<Int>()
        for index in 0..<16 {
            limiter.execute(token: nil) { finish in
                ran.append(index); finish()
            }
        }
        #expect(ran.count == 15, "a full bucket of 15 passes at once")
        #expect(await eventually { ran.count == 16 }, "the 16th waits for the refill")
    }

    @Test func aBurstRunsAtOnceTheRestWaitsForTokens() async {
        let wrapped = CountingScheduler()
        let limiter = RateLimiter(scheduler: wrapped, rate: 10, burst: 3)
        let ran = Recorder<Int>()
        for index in 0..<5 {
            limiter.execute(token: nil) { finish in
                ran.append(index); finish()
            }
        }
        #expect(ran.all == [0, 1, 2])
        #expect(await eventually { ran.count == 5 })
        #expect(ran.all == [0, 1, 2, 3, 4], "waiting work runs first come first served")
    }

    @Test func workCancelledWhileWaitingNeverRunsNorSpendsAToken() async {
        let wrapped = CountingScheduler()
        let limiter = RateLimiter(scheduler: wrapped, rate: 20, burst: 1)
        let ran = Recorder<String>()
        let source = CancellationTokenSource()
        limiter.execute(token: nil) { finish in
            ran.append("first"); finish()
        }
        limiter.execute(token: source.token) { finish in
            ran.append("cancelled"); finish()
        }
        limiter.execute(token: nil) { finish in
            ran.append("third"); finish()
        }
        source.cancel()
        #expect(await eventually { ran.count == 2 })
        await pause(milliseconds: 150)
        #expect(ran.all == ["first", "third"])
        #expect(wrapped.started.count == 2)
    }
}

@Suite("SchedulerTests", .timeLimit(.minutes(10)))
struct SchedulerTests {
    @Test func operationQueueSchedulerLimitsConcurrentWork() async {
        let scheduler = OperationQueueScheduler(maxConcurrentOperationCount: 2)
        let started = Recorder<Int>()
        let finishes = Recorder<() -> Void>()
        for index in 0..<3 {
            scheduler.execute(token: nil) { finish in
                started.append(index)
                finishes.append(finish)
            }
        }
        #expect(await eventually { started.count == 2 })
        await pause(milliseconds: 100)
        #expect(started.count == 2)
        finishes.all[0]()
        #expect(await eventually { started.count == 3 })
    }

    @Test func operationQueueSchedulerSkipsWorkCancelledWhileQueued() async {
        let scheduler = OperationQueueScheduler(maxConcurrentOperationCount: 1)
        let started = Recorder<Int>()
        let finishes = Recorder<() -> Void>()
        let source = CancellationTokenSource()
        scheduler.execute(token: nil) { finish in
            started.append(0); finishes.append(finish)
        }
        scheduler.execute(token: source.token) { finish in
            started.append(1); finish()
        }
        scheduler.execute(token: nil) { finish in
            started.append(2); finish()
        }
        #expect(await eventually { started.count == 1 })
        source.cancel()
        finishes.all[0]()
        #expect(await eventually { started.count == 2 })
        #expect(started.all == [0, 2])
    }

    @Test func operationQueueSchedulerLetsGoOfAWorksClosureOnceItStarts() async {
        let scheduler = OperationQueueScheduler(maxConcurrentOperationCount: 1)
        let finishes = Recorder<() -> Void>()
        weak var weakCapture: Recorder<Int>?
        do {
            let capture = Recorder<Int>()
            weakCapture = capture
            scheduler.execute(token: nil) { finish in
                capture.append(1)
                finishes.append(finish)
            }
        }
        #expect(await eventually { finishes.count == 1 })
        #expect(await eventually { weakCapture == nil })
        finishes.all.first?()
    }

    @Test func dispatchQueueSchedulerSkipsCancelledWork() async {
        let queue = DispatchQueue(label: "scheduler-test")
        let scheduler = DispatchQueueScheduler(queue: queue)
        let ran = Recorder<Int>()
        let source = CancellationTokenSource()
        queue.suspend()
        scheduler.execute(token: source.token) { ran.append(1) }
        scheduler.execute(token: nil) { ran.append(2) }
        source.cancel()
        queue.resume()
        #expect(await eventually { ran.count == 1 })
        await pause(milliseconds: 50)
        #expect(ran.all == [2])
    }
}
