import Foundation

/// Lets work through at a steady rate: a token bucket that starts full with `burst` tokens and
/// refills at `rate` tokens a second (never above `burst`). Work that finds the bucket empty
/// waits in FIFO order and is re-checked every 50 ms; work whose token is cancelled while it
/// waits (or before) never runs and never spends a token. Admitted work goes to the wrapped
/// scheduler. Thread-safe.
// Safe: the bucket and the queue are only touched under `lock`; work is started outside it.
public final class RateLimiter: AsyncScheduler, @unchecked Sendable {
    private let scheduler: Unchecked<AsyncScheduler>
    private let rate: Double
    private let burst: Double
    private let lock = NSLock()
    private var tokens: Double
    private var lastRefill = DispatchTime.now()
    private typealias Waiting = (token: CancellationToken?, closure: Unchecked<(@escaping () -> Void) -> Void>)
    private var waiting: [Waiting] = []
    private var isCheckScheduled = false
    private let timerQueue = DispatchQueue(label: "com.comet.NukeCompat.RateLimiter")

    /// Creates a limiter in front of `scheduler`: `rate` works a second on average, bursts of up
    /// to `burst`. Defaults: 30 a second, bursts of 15.
    public init(scheduler: AsyncScheduler, rate: Int = 30, burst: Int = 15) {
        precondition(rate > 0 && burst > 0, "RateLimiter needs a positive rate and burst")
        self.scheduler = Unchecked(scheduler)
        self.rate = Double(rate)
        self.burst = Double(burst)
        self.tokens = Double(burst)
    }

    /// Passes `closure` to the wrapped scheduler now if a token is free and nothing waits,
    /// else queues it.
    public func execute(token: CancellationToken?, closure: @escaping (_ finish: @escaping () -> Void) -> Void) {
        guard token?.isCancelling != true else { return }
        let admitted: Bool = lock.locked {
            refill()
            if waiting.isEmpty, tokens >= 1 {
                tokens -= 1
                return true
            }
            waiting.append((token, Unchecked(closure)))
            return false
        }
        if admitted {
            scheduler.value.execute(token: token, closure: closure)
        } else {
            scheduleCheck()
        }
    }

    /// Adds the tokens earned since the last refill (caller holds the lock).
    private func refill() {
        let now = DispatchTime.now()
        let elapsed = Double(now.uptimeNanoseconds - lastRefill.uptimeNanoseconds) / 1e9
        tokens = min(burst, tokens + elapsed * rate)
        lastRefill = now
    }

    private func scheduleCheck() {
        let schedule: Bool = lock.locked {
            guard !isCheckScheduled, !waiting.isEmpty else { return false }
            isCheckScheduled = true
            return true
        }
        guard schedule else { return }
        timerQueue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in
            self?.drain()
        }
    }

    /// Admits waiting work, first come first served, while tokens last; drops cancelled work.
    private func drain() {
        let admitted: [Waiting] = lock.locked {
            isCheckScheduled = false
            refill()
            var admitted: [Waiting] = []
            while let first = waiting.first {
                if first.token?.isCancelling == true {
                    waiting.removeFirst()
                    continue
                }
                guard tokens >= 1 else { break }
                tokens -= 1
                admitted.append(waiting.removeFirst())
            }
            return admitted
        }
        for work in admitted {
            scheduler.value.execute(token: work.token, closure: work.closure.value)
        }
        scheduleCheck()
    }
}
