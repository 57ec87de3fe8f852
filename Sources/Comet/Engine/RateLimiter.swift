import Dispatch
import Foundation

/// Token buckets in front of network starts (see ``ImagePipeline/RateLimit``): up to `burst`
/// loads start at once, then at most `rate` a second, per host or for the whole pipeline. Work
/// over the rate waits (it is delayed, never dropped); work that was cancelled while waiting is
/// skipped without spending a token.
///
/// Confined to its pipeline's graph (its methods take the graph's ``GraphToken``); the refill
/// timer re-enters the graph through the executor.
final class RateLimiter: @unchecked Sendable {
    private final class Bucket: @unchecked Sendable {  // touched only by the limiter's graph-only methods
        var tokens: Double
        var lastRefill: UInt64
        var pending: [Work] = []
        var pendingHead = 0
        var isDrainScheduled = false

        init(tokens: Double) {
            self.tokens = tokens
            self.lastRefill = DispatchTime.now().uptimeNanoseconds
        }

        var hasPending: Bool { pendingHead < pending.count }
    }

    /// Work that runs in the graph when a token is free; returns whether it started something.
    typealias Work = (borrowing GraphToken) -> Bool

    let limit: ImagePipeline.RateLimit
    private let executor: PipelineExecutor
    private var buckets: [String: Bucket] = [:]

    init(limit: ImagePipeline.RateLimit, executor: PipelineExecutor) {
        self.limit = limit
        self.executor = executor
    }

    /// Runs `work` now if a token is free for `host` (and nothing waits before it), else later.
    /// `work` returns whether it really started something: `false` (cancelled meanwhile) spends
    /// no token.
    func execute(host: String?, _ graph: borrowing GraphToken, _ work: @escaping Work) {
        graph.assertIsGraph(of: executor)
        let key = limit.scope == .perHost ? (host?.lowercased() ?? "") : ""
        let bucket =
            buckets[key]
            ?? {
                let bucket = Bucket(tokens: Double(limit.burst))
                buckets[key] = bucket
                return bucket
            }()
        if !bucket.hasPending, take(work, from: bucket, graph) { return }
        bucket.pending.append(work)
        scheduleDrain(of: bucket, key: key)
    }

    private func refill(_ bucket: Bucket) {
        let now = DispatchTime.now().uptimeNanoseconds
        bucket.tokens = min(Double(limit.burst), bucket.tokens + Double(now - bucket.lastRefill) / 1e9 * limit.rate)
        bucket.lastRefill = now
    }

    /// Spends a token on `work` if one is available; `true` when the work no longer waits.
    private func take(_ work: Work, from bucket: Bucket, _ graph: borrowing GraphToken) -> Bool {
        refill(bucket)
        guard bucket.tokens >= 1 else { return false }
        if work(graph) { bucket.tokens -= 1 }
        return true
    }

    private func scheduleDrain(of bucket: Bucket, key: String) {
        guard !bucket.isDrainScheduled else { return }
        bucket.isDrainScheduled = true
        let wait = max(0.001, (1 - bucket.tokens) / limit.rate)
        let executor = self.executor
        DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: .now() + wait) { [weak self] in
            guard let self else { return }
            executor.perform { graph in self.drain(bucket, key: key, graph) }
        }
    }

    private func drain(_ bucket: Bucket, key: String, _ graph: borrowing GraphToken) {
        bucket.isDrainScheduled = false
        while bucket.hasPending {
            guard take(bucket.pending[bucket.pendingHead], from: bucket, graph) else { break }
            bucket.pending[bucket.pendingHead] = { _ in false }
            bucket.pendingHead += 1
        }
        if bucket.hasPending {
            scheduleDrain(of: bucket, key: key)
        } else {
            bucket.pending.removeAll(keepingCapacity: false)
            bucket.pendingHead = 0
            // A full bucket with nothing waiting is the same as a new one: forget it, so a
            // pipeline that meets many hosts does not keep one bucket per host forever.
            refill(bucket)
            if bucket.tokens >= Double(limit.burst) { buckets[key] = nil }
        }
    }
}
