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

/// The pipeline's counters, one atomic each (incremented in the graph and from callers'
/// threads on memory hits; a lock per increment would be several per request). A snapshot reads
/// them one by one: counters that change together may be seen one increment apart while work
/// is in flight.
final class MetricsRecorder: Sendable {
    /// One counter of ``ImagePipeline/Metrics``.
    enum Counter {
        case tasksStarted, downloadsStarted, coalescedRequests, memoryCacheHits, diskCacheHits
        case retries, bytesLoaded, decodes, processorRuns
    }

    private let tasksStarted = Atomic<Int>(0)
    private let downloadsStarted = Atomic<Int>(0)
    private let coalescedRequests = Atomic<Int>(0)
    private let memoryCacheHits = Atomic<Int>(0)
    private let diskCacheHits = Atomic<Int>(0)
    private let retries = Atomic<Int>(0)
    private let bytesLoaded = Atomic<Int>(0)
    private let decodes = Atomic<Int>(0)
    private let processorRuns = Atomic<Int>(0)

    /// Adds `amount` to `counter`.
    func record(_ counter: Counter, _ amount: Int = 1) {
        switch counter {
        case .tasksStarted: tasksStarted.wrappingAdd(amount, ordering: .relaxed)
        case .downloadsStarted: downloadsStarted.wrappingAdd(amount, ordering: .relaxed)
        case .coalescedRequests: coalescedRequests.wrappingAdd(amount, ordering: .relaxed)
        case .memoryCacheHits: memoryCacheHits.wrappingAdd(amount, ordering: .relaxed)
        case .diskCacheHits: diskCacheHits.wrappingAdd(amount, ordering: .relaxed)
        case .retries: retries.wrappingAdd(amount, ordering: .relaxed)
        case .bytesLoaded: bytesLoaded.wrappingAdd(amount, ordering: .relaxed)
        case .decodes: decodes.wrappingAdd(amount, ordering: .relaxed)
        case .processorRuns: processorRuns.wrappingAdd(amount, ordering: .relaxed)
        }
    }

    var current: ImagePipeline.Metrics {
        var metrics = ImagePipeline.Metrics()
        metrics.tasksStarted = tasksStarted.load(ordering: .relaxed)
        metrics.downloadsStarted = downloadsStarted.load(ordering: .relaxed)
        metrics.coalescedRequests = coalescedRequests.load(ordering: .relaxed)
        metrics.memoryCacheHits = memoryCacheHits.load(ordering: .relaxed)
        metrics.diskCacheHits = diskCacheHits.load(ordering: .relaxed)
        metrics.retries = retries.load(ordering: .relaxed)
        metrics.bytesLoaded = bytesLoaded.load(ordering: .relaxed)
        metrics.decodes = decodes.load(ordering: .relaxed)
        metrics.processorRuns = processorRuns.load(ordering: .relaxed)
        return metrics
    }
}
