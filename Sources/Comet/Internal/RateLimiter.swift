import Dispatch
import Foundation

/// A token bucket in front of network starts: up to `burst` loads start at once, then at most
/// `rate` per second. Work over the rate waits (it is delayed, never dropped); work that was
/// cancelled while waiting is skipped without spending a token.
///
/// Confined to its pipeline's coordinator queue (`queue`).
final class RateLimiter: @unchecked Sendable {
    private let queue: DispatchQueue
    private let rate: Double
    private let burst: Double
    private var tokens: Double
    private var lastRefill: UInt64
    private var pending: [() -> Bool] = []
    private var pendingHead = 0
    private var isDrainScheduled = false

    /// `rate` tokens a second, at most `burst` saved up. Nuke's defaults: 80 and 25.
    init(rate: Double = 80, burst: Double = 25, queue: DispatchQueue) {
        self.queue = queue
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.lastRefill = DispatchTime.now().uptimeNanoseconds
    }

    /// Runs `work` now if a token is free (and nothing waits before it), else later. `work`
    /// returns whether it really started something: `false` (cancelled meanwhile) spends no token.
    func execute(_ work: @escaping () -> Bool) {
        if pendingHead == pending.count, take(work) { return }
        pending.append(work)
        scheduleDrain()
    }

    private func refill() {
        let now = DispatchTime.now().uptimeNanoseconds
        tokens = min(burst, tokens + Double(now - lastRefill) / 1e9 * rate)
        lastRefill = now
    }

    /// Spends a token on `work` if one is available; `true` when the work no longer waits.
    private func take(_ work: () -> Bool) -> Bool {
        refill()
        guard tokens >= 1 else { return false }
        if work() { tokens -= 1 }
        return true
    }

    private func scheduleDrain() {
        guard !isDrainScheduled else { return }
        isDrainScheduled = true
        let wait = max(0.001, (1 - tokens) / rate)
        queue.asyncAfter(deadline: .now() + wait) { [weak self] in
            guard let self else { return }
            self.isDrainScheduled = false
            while self.pendingHead < self.pending.count {
                let work = self.pending[self.pendingHead]
                guard self.take(work) else { break }
                self.pendingHead += 1
            }
            if self.pendingHead == self.pending.count {
                self.pending.removeAll(keepingCapacity: true)
                self.pendingHead = 0
            } else {
                self.scheduleDrain()
            }
        }
    }
}
