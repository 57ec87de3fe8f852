import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Logging
import Synchronization

/// The shared state of one pipeline's task graph: its executor, work queues, rate limiter,
/// decoded-image backlog, job pools and cache policy. Confined to the graph (see
/// ``PipelineExecutor`` for the execution model: the methods that touch it take the graph's
/// ``GraphToken``) except `configuration` (immutable), `metrics` (its own lock) and `executor`
/// itself.
final class PipelineContext: @unchecked Sendable {
    let configuration: ImagePipeline.Configuration
    /// Where the graph runs.
    let executor: PipelineExecutor
    let dataLoadingQueue: WorkQueue
    let decodingQueue: WorkQueue
    let processingQueue: WorkQueue
    let dataCachingQueue: WorkQueue
    let rateLimiter: RateLimiter?
    let backlog: DecodedImageBacklog
    let cachePolicy: CacheWritePolicy
    let metrics = MetricsRecorder()
    /// Partial downloads kept for resuming; `nil` when resumable downloads are off.
    let resumableData: ResumableDataStore?
    let logger: Logger

    /// Set by ``ImagePipeline/invalidate()``: work that finishes afterwards is not cached.
    let isInvalidated = Atomic<Bool>(false)

    private var fetchJobs: [DataLoadKey: FetchDataJob] = [:]
    private var decodeJobs: [ImageKey: DecodeJob] = [:]
    private var processJobs: [ImageKey: ProcessJob] = [:]

    init(configuration: ImagePipeline.Configuration) {
        self.configuration = configuration
        let executor = PipelineExecutor()
        self.executor = executor
        let backlog = DecodedImageBacklog(
            limit: configuration.decodedImageBacklogLimit ?? 2 * configuration.decodingConcurrencyLimit,
            executor: executor)
        self.backlog = backlog
        let decodingQueue = WorkQueue(
            maxConcurrentCount: configuration.decodingConcurrencyLimit, executor: executor, backlog: backlog)
        self.decodingQueue = decodingQueue
        dataLoadingQueue = WorkQueue(
            maxConcurrentCount: configuration.dataLoadingConcurrencyLimit, executor: executor,
            heldBackBy: (
                decodingQueue,
                configuration.undecodedDataBacklogLimit ?? 2 * configuration.decodingConcurrencyLimit
            ))
        processingQueue = WorkQueue(maxConcurrentCount: configuration.processingConcurrencyLimit, executor: executor)
        dataCachingQueue = WorkQueue(maxConcurrentCount: 2, executor: executor)
        rateLimiter = configuration.rateLimit.map { RateLimiter(limit: $0, executor: executor) }
        cachePolicy = CacheWritePolicy(configuration)
        resumableData =
            configuration.isResumableDataEnabled
            ? ResumableDataStore(byteLimit: configuration.resumableDataByteLimit) : nil
        logger = configuration.logger
    }

    func log(_ message: @autoclosure () -> String) {
        logger.trace("\(message())")
    }

    #if DEBUG
        /// Jobs that have not finished yet (tests, debug builds only: a quiet pipeline holds none).
        func activeJobCount(_ graph: borrowing GraphToken) -> Int {
            fetchJobs.count + decodeJobs.count + processJobs.count
        }

        /// The priority of the in-flight fetch for a data key (tests, debug builds only).
        func fetchJobPriority(for key: String, _ graph: borrowing GraphToken) -> ImageRequest.Priority? {
            fetchJobs.first { $0.key.dataKey == key }?.value.priority(graph)
        }
    #endif

    // MARK: Jobs

    func fetchDataJob(for request: ImageRequest, _ graph: borrowing GraphToken) -> FetchDataJob {
        graph.assertIsGraph(of: executor)
        let key = DataLoadKey(request)
        guard configuration.isTaskCoalescingEnabled else {
            return FetchDataJob(request: request, key: key, context: self)
        }
        if let job = fetchJobs[key] {
            metrics.record(.coalescedRequests)
            return job
        }
        let job = FetchDataJob(request: request, key: key, context: self)
        fetchJobs[key] = job
        return job
    }

    /// The job that produces `key` (a decode when it has no processors). `isDirect`: an image
    /// task asks for exactly this result, `request`'s own key (it is then cached when it
    /// completes).
    func imageJob(
        for request: ImageRequest, key: ImageKey, isDirect: Bool, _ graph: borrowing GraphToken
    ) -> Job<ImageResult> {
        graph.assertIsGraph(of: executor)
        // The request keeps its memory key made; another stage's is made once, with its job.
        if key.processors.isEmpty {
            return pooledJob(&decodeJobs, key: key, isDirect: isDirect, graph) {
                DecodeJob(
                    request: request, key: key, memoryKey: isDirect ? request.memoryCacheKey : key.memoryKey,
                    context: self)
            }
        }
        return pooledJob(&processJobs, key: key, isDirect: isDirect, graph) {
            ProcessJob(
                request: request, key: key, memoryKey: isDirect ? request.memoryCacheKey : key.memoryKey, context: self)
        }
    }

    /// The job in flight for `key` when coalescing is on, else a new one (kept in `pool` until
    /// it is done).
    private func pooledJob<J: ImageJob>(
        _ pool: inout [ImageKey: J], key: ImageKey, isDirect: Bool, _ graph: borrowing GraphToken,
        make: () -> J
    ) -> J {
        let coalesces = configuration.isTaskCoalescingEnabled
        let job: J
        if coalesces, let pooled = pool[key] {
            metrics.record(.coalescedRequests)
            job = pooled
        } else {
            job = make()
            if coalesces { pool[key] = job }
        }
        if isDirect { job.markRequestedDirectly(graph) }
        return job
    }

    /// A finished job leaves its pool (if it is the pooled one: with coalescing off, none is).
    func removeFromPool(_ job: FetchDataJob, key: DataLoadKey, _ graph: borrowing GraphToken) {
        if let pooled = fetchJobs[key], pooled === job { fetchJobs[key] = nil }
    }

    /// A finished decode or processor job leaves its pool (if it is the pooled one).
    func removeFromPool(_ job: ImageJob, _ graph: borrowing GraphToken) {
        let key = job.key
        if key.processors.isEmpty {
            if let pooled = decodeJobs[key], pooled === job { decodeJobs[key] = nil }
        } else {
            if let pooled = processJobs[key], pooled === job { processJobs[key] = nil }
        }
    }

    // MARK: Caches

    /// A clean image from the memory cache, if the request may read it.
    func cachedImage(for memoryKey: ImageCacheKey, request: ImageRequest) -> ImageResult? {
        guard !request.options.contains(.disableMemoryCacheReads), !request.options.contains(.reloadIgnoringCachedData),
            let cache = configuration.imageCache, let cached = cache[memoryKey], !cached.isPreview
        else { return nil }
        metrics.record(.memoryCacheHits)
        return ImageResult(
            image: cached.image, isPreview: false, isClean: true, response: nil, cacheType: .memory,
            animation: cached.animation)
    }

    /// Stores the downloaded bytes of a request whose decode came out clean, when the policy
    /// keeps original data (the write itself happens in the disk cache's own writer).
    func storeOriginalDataIfNeeded(_ data: Data, for request: ImageRequest) {
        guard !isInvalidated.load(ordering: .relaxed), cachePolicy.storesOriginalData(for: request),
            let dataCache = dataCache(for: request),
            let key = dataCacheKey(for: request), let data = bytesToCache(data, for: request)
        else { return }
        dataCache.storeData(data, for: key)
    }

    /// Stores downloaded bytes that no decode of this pipeline has checked (``ImagePipeline/data(for:)``)
    /// after decoding them once on a worker: only clean images are cached. `then` runs in the
    /// graph afterwards, stored or not.
    func storeOriginalDataIfClean(
        _ data: Data, for request: ImageRequest, _ graph: borrowing GraphToken, then: @escaping () -> Void
    ) {
        let decoders = configuration.decoders
        let options = configuration.decodingOptions
        decodingQueue.run(
            priority: request.priority, graph, { (try? decoders.decode(data, options: options))?.isClean == true },
            then: { [self] _, isClean in
                if isClean { storeOriginalDataIfNeeded(data, for: request) }
                then()
            })
    }

    /// Stores a final, clean result in the memory cache and, when the policy says so, encoded in
    /// the disk cache (encoded on a worker).
    func store(
        _ result: ImageResult, key: ImageKey, memoryKey: ImageCacheKey, request: ImageRequest, processed: Bool,
        _ graph: borrowing GraphToken
    ) {
        graph.assertIsGraph(of: executor)
        guard result.isClean, !result.isPreview, !isInvalidated.load(ordering: .relaxed) else { return }
        if let cache = configuration.imageCache, !request.options.contains(.disableMemoryCacheWrites),
            result.cacheType != .memory,
            let image = hooks.willCacheImage.map({ $0(result.image, request) }) ?? result.image
        {
            // A hook's replacement becomes the still image; an animation's frames stay as decoded.
            cache[memoryKey] = CachedImage(image: image, animation: result.animation)
        }
        // An animation is never re-encoded (one image would lose its frames): its original data
        // is what the disk keeps.
        guard result.cacheType == nil, result.animation == nil,
            cachePolicy.storesEncodedImage(for: request, processed: processed),
            let dataCache = dataCache(for: request)
        else { return }
        let image = result.image
        let diskKey = encodedCacheKey(for: key, request: request)
        let encoder = configuration.makeImageEncoder(ImageEncodingContext(request: request, image: image))
        let logger = self.logger
        dataCachingQueue.run(
            priority: .low, graph,
            {
                do {
                    guard let data = self.bytesToCache(try encoder.encode(image), for: request) else { return }
                    dataCache.storeData(data, for: diskKey)
                } catch {
                    logger.debug("not caching \(diskKey): \(error)")
                }
            }, then: { _, _ in })
    }

    /// Reads and decodes an encoded image from the disk cache on a worker, then calls
    /// `completion` in the graph (`nil` on a miss or a bad entry).
    func readEncodedImage(
        key imageKey: ImageKey, request: ImageRequest, priority: ImageRequest.Priority, owner: Job<ImageResult>,
        _ graph: borrowing GraphToken, completion: @escaping (borrowing GraphToken, Image?) -> Void
    ) {
        guard let dataCache = dataCache(for: request) else { return completion(graph, nil) }
        let key = encodedCacheKey(for: imageKey, request: request)
        // An entry of a request that keeps the original colours embeds its profile: keep it again.
        let options = configuration.decodingOptions.keepingOriginalColors(imageKey.keepsOriginalColors)
        let decoders = configuration.decoders
        let item = dataCachingQueue.run(
            priority: priority, graph,
            {
                dataCache.cachedData(for: key).flatMap { data -> Image? in
                    guard let decoded = try? decoders.decode(data, options: options), decoded.isClean else {
                        return nil
                    }
                    return decoded.image
                }
            },
            then: { [metrics] graph, image in
                if image != nil { metrics.record(.diskCacheHits) }
                completion(graph, image)
            })
        owner.setWorkItem(item, graph)
    }
}
