import Locking
import Synchronization

extension ImagePipeline {
    /// Counters of what a pipeline did since it was created; read with ``ImagePipeline/metrics``.
    public struct Metrics: Sendable, Hashable {
        /// Image tasks created (including memory-cache hits).
        public var tasksStarted = 0
        /// Downloads (or data-closure calls) started: one per distinct resource when coalescing works.
        public var downloadsStarted = 0
        /// Times a request joined work already in flight (a download, decode or processor run).
        public var coalescedRequests = 0
        /// Results served from the memory cache.
        public var memoryCacheHits = 0
        /// Results served from the disk cache (original data or encoded images).
        public var diskCacheHits = 0
        /// Downloads tried again after a transient failure (see ``RetryPolicy``); each retry of
        /// a shared download counts once.
        public var retries = 0
        /// Bytes received from data loaders.
        public var bytesLoaded = 0
        /// Final decodes performed.
        public var decodes = 0
        /// Processor runs (previews included).
        public var processorRuns = 0

        /// All zero.
        public init() {}
    }
}

/// The pipeline's counters behind a small lock (incremented in the graph and from
/// callers' threads on memory hits).
final class MetricsRecorder: Sendable {
    private let state = Locked(ImagePipeline.Metrics())

    func record(_ update: (inout ImagePipeline.Metrics) -> Void) {
        state.withLock { update(&$0) }
    }

    var current: ImagePipeline.Metrics { state.withLock { $0 } }
}
