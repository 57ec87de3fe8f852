extension ImagePipeline {
    /// How fast a pipeline starts downloads: a token bucket that lets `burst` starts through at
    /// once, then `rate` a second. Starts over the rate wait; nothing is dropped.
    ///
    /// A pipeline has none by default (``ImagePipeline/Configuration/rateLimit`` is `nil`): the
    /// download queue's concurrency limit already bounds what one pipeline asks of a server, and
    /// any fixed rate throttles a batch of small images from one host below what the machine
    /// does (the pipeline starts about 30 000 requests a second). Nuke's 80 a second (bursts of
    /// 25, ``nukeDefault``) exists to spare an app's scrolling UI from start/cancel churn; set it,
    /// or your own numbers per host, where that churn exists.
    public struct RateLimit: Sendable, Hashable {
        /// What one bucket covers.
        public enum Scope: Sendable, Hashable {
            /// One bucket per host: a busy host does not slow the others.
            case perHost
            /// One bucket for every download of the pipeline.
            case global
        }

        /// Starts per second once the burst is spent (more than 0).
        public var rate: Double
        /// Starts allowed at once (at least 1).
        public var burst: Int
        /// Per host (the default) or for the whole pipeline.
        public var scope: Scope

        /// Creates a limit.
        public init(rate: Double, burst: Int, scope: Scope = .perHost) {
            precondition(rate > 0, "a rate limit's rate must be positive")
            self.rate = rate
            self.burst = max(1, burst)
            self.scope = scope
        }

        /// Nuke's limiter: 80 starts a second, bursts of 25, for the whole pipeline.
        public static let nukeDefault = RateLimit(rate: 80, burst: 25, scope: .global)
    }
}
