extension ImagePipeline {
    /// How fast a pipeline starts downloads: a token bucket that lets `burst` starts through at
    /// once, then `rate` a second. Starts over the rate wait; nothing is dropped.
    ///
    /// The default (``default``, per host, 1 000 a second, bursts of 200) is a safety valve, not
    /// a pace: the download queue's concurrency limit already bounds what one pipeline asks of a
    /// server, and a batch from one host runs at what the network and the decoders can do. The
    /// limiter catches runaway start/cancel churn (a scrolling list, a retry loop) before it
    /// reaches the loader. Nuke's 80 a second (bursts of 25) exists for an app's scrolling UI;
    /// use ``nukeDefault`` for the same behaviour.
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

        /// Per host, 1 000 starts a second, bursts of 200: above what a machine decodes, so a
        /// batch is never slowed; it only stops runaway churn.
        public static let `default` = RateLimit(rate: 1_000, burst: 200, scope: .perHost)

        /// Nuke's limiter: 80 starts a second, bursts of 25, for the whole pipeline.
        public static let nukeDefault = RateLimit(rate: 80, burst: 25, scope: .global)
    }
}
