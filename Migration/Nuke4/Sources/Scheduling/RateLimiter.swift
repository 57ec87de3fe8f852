import Foundation

/// Lets work through at a steady rate: a token bucket that starts full with `burst` tokens and
/// refills at `rate` tokens a second (never above `burst`). Work that finds the bucket empty
/// waits in FIFO order and is re-checked every 50 ms; work whose token is cancelled while it
/// waits (or before) never runs and never spends a token. Admitted work goes to the wrapped
/// scheduler. Thread-safe.
// Work is started outside the lock.
public final class RateLimiter: AsyncScheduler, Sendable {
    private let scheduler: Unchecked<AsyncScheduler>
    private let rate: Double
    private let burst: Double
    private typealias Waiting = (token: CancellationToken?, closure: Unchecked<(@escaping () -> Void) -> Void>)

    /// The bucket and the queue of waiting work.
    private struct Bucket {
        var tokens: Double
        var lastRefill = DispatchTime.now()
        var waiting: [Waiting] = []
        var isCheckScheduled = false

        /// Adds the tokens earned since the last refill, up to `burst`.
        mutating func refill(rate: Double, burst: Double) {
            let now = DispatchTime.now()
            let elapsed = Double(now.uptimeNanoseconds - lastRefill.uptimeNanoseconds) / 1e9
            tokens = min(burst, tokens + elapsed * rate)
            lastRefill = now
        }
    }

    private let bucket: LockedValue<Bucket>
    private let timerQueue = DispatchQueue(label: "com.comet.NukeCompat.RateLimiter")

    /// Creates a limiter in front of `scheduler`: `rate` works a second on average, bursts of up
    /// to `burst`. Defaults: 30 a second, bursts of 15.
    public init(scheduler: AsyncScheduler, rate: Int = 30, burst: Int = 15) {
        precondition(rate > 0 && burst > 0, "RateLimiter needs a positive rate and burst")
        self.scheduler = Unchecked(scheduler)
        self.rate = Double(rate)
        self.burst = Double(burst)
        self.bucket = LockedValue(Bucket(tokens: Double(burst)))
    }

    /// Passes `closure` to the wrapped scheduler now if a token is free and nothing waits,
    /// else queues it.
    public func execute(token: CancellationToken?, closure: @escaping (_ finish: @escaping () -> Void) -> Void) {
        guard token?.isCancelling != true else { return }
        let admitted: Bool = bucket.withLock { [rate, burst] bucket in
            bucket.refill(rate: rate, burst: burst)
            if bucket.waiting.isEmpty, bucket.tokens >= 1 {
                bucket.tokens -= 1
                return true
            }
            bucket.waiting.append((token, Unchecked(closure)))
            return false
        }
        if admitted {
            scheduler.value.execute(token: token, closure: closure)
        } else {
            scheduleCheck()
        }
    }

    private func scheduleCheck() {
        let schedule: Bool = bucket.withLock { bucket in
            guard !bucket.isCheckScheduled, !bucket.waiting.isEmpty else { return false }
            bucket.isCheckScheduled = true
            return true
        }
        guard schedule else { return }
        timerQueue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in
            self?.drain()
        }
    }

    /// Admits waiting work, first come first served, while tokens last; drops cancelled work.
    private func drain() {
        let admitted: [Waiting] = bucket.withLock { [rate, burst] bucket in
            bucket.isCheckScheduled = false
            bucket.refill(rate: rate, burst: burst)
            var admitted: [Waiting] = []
            while let first = bucket.waiting.first {
                if first.token?.isCancelling == true {
                    bucket.waiting.removeFirst()
                    continue
                }
                guard bucket.tokens >= 1 else { break }
                bucket.tokens -= 1
                admitted.append(bucket.waiting.removeFirst())
            }
            return admitted
        }
        for work in admitted {
            scheduler.value.execute(token: work.token, closure: work.closure.value)
        }
        scheduleCheck()
    }
}
