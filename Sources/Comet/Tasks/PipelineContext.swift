import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Synchronization

/// The shared state of one pipeline's task graph: its configuration, work queues, rate
/// limiter, job pools and counters. Confined to `queue` (the pipeline's coordinator) except
/// `configuration` (immutable) and `metrics` (its own lock).
final class PipelineContext: @unchecked Sendable {
    let configuration: ImagePipeline.Configuration
    /// The pipeline's coordinator: the only queue the graph is touched on.
    let queue = ImagePipelineCoordinator.makeQueue()
    let dataLoadingQueue: WorkQueue
    let decodingQueue: WorkQueue
    let processingQueue: WorkQueue
    let dataCachingQueue: WorkQueue
    let rateLimiter: RateLimiter
    let metrics = MetricsRecorder()
    let logger: Logger

    private var fetchJobs: [String: FetchDataJob] = [:]
    private var decodeJobs: [ImageKey: DecodeJob] = [:]
    private var processJobs: [ImageKey: ProcessJob] = [:]

    init(configuration: ImagePipeline.Configuration) {
        self.configuration = configuration
        dataLoadingQueue = WorkQueue(name: "data loading", maxConcurrentCount: configuration.dataLoadingConcurrencyLimit, queue: queue)
        decodingQueue = WorkQueue(name: "decoding", maxConcurrentCount: configuration.decodingConcurrencyLimit, queue: queue)
        processingQueue = WorkQueue(name: "processing", maxConcurrentCount: configuration.processingConcurrencyLimit, queue: queue)
        dataCachingQueue = WorkQueue(name: "data caching", maxConcurrentCount: 2, queue: queue)
        rateLimiter = RateLimiter(queue: queue)
        logger = configuration.logger
    }

    func log(_ message: @autoclosure () -> String) {
        logger.trace("\(message())")
    }

    /// Jobs that have not finished yet (for tests: a quiet pipeline holds none).
    var activeJobCount: Int { fetchJobs.count + decodeJobs.count + processJobs.count }

    /// The priority of the in-flight fetch for a data key (tests and diagnostics).
    func debugFetchJobPriority(for key: String) -> ImageRequest.Priority? { fetchJobs[key]?.priority }

    // MARK: Jobs

    func fetchDataJob(for request: ImageRequest) -> FetchDataJob {
        let key = request.imageID ?? ""
        if configuration.isTaskCoalescingEnabled, let job = fetchJobs[key] {
            metrics.record { $0.coalescedRequests += 1 }
            return job
        }
        let job = FetchDataJob(request: request, key: key, context: self)
        if configuration.isTaskCoalescingEnabled {
            fetchJobs[key] = job
            job.onDone = { [weak self, weak job] in
                if let self, let job, self.fetchJobs[key] === job { self.fetchJobs[key] = nil }
            }
        }
        return job
    }

    /// The job that produces `key` (a decode when it has no processors). `isDirect`: an image
    /// task asks for exactly this result (it is then cached when it completes).
    func imageJob(for request: ImageRequest, key: ImageKey, isDirect: Bool) -> Job<ImageResult> {
        if key.processors.isEmpty {
            let job = pooledJob(in: \.decodeJobs, key: key) { DecodeJob(request: request, key: key, context: self) }
            if isDirect { job.isRequestedDirectly = true }
            return job
        }
        let job = pooledJob(in: \.processJobs, key: key) { ProcessJob(request: request, key: key, context: self) }
        if isDirect { job.isRequestedDirectly = true }
        return job
    }

    /// The job in flight for `key` when coalescing is on, else a new one (registered in the pool
    /// until it is done).
    private func pooledJob<J: Job<ImageResult>>(in pool: ReferenceWritableKeyPath<PipelineContext, [ImageKey: J]>,
                                                key: ImageKey, make: () -> J) -> J {
        guard configuration.isTaskCoalescingEnabled else { return make() }
        if let job = self[keyPath: pool][key] {
            metrics.record { $0.coalescedRequests += 1 }
            return job
        }
        let job = make()
        self[keyPath: pool][key] = job
        job.onDone = { [weak self, weak job] in
            if let self, let job, self[keyPath: pool][key] === job { self[keyPath: pool][key] = nil }
        }
        return job
    }

    // MARK: Caches

    /// A clean image from the memory cache, if the request may read it.
    func cachedImage(for key: ImageKey, request: ImageRequest) -> ImageResult? {
        guard !request.options.contains(.disableMemoryCacheReads), !request.options.contains(.reloadIgnoringCachedData),
              let cache = configuration.imageCache, let cached = cache[key.memoryKey], !cached.isPreview else { return nil }
        metrics.record { $0.memoryCacheHits += 1 }
        return ImageResult(image: cached.image, isPreview: false, isClean: true, response: nil, cacheType: .memory)
    }

    private func isLocal(_ request: ImageRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "file" || scheme == "data"
    }

    /// Whether the policy stores encoded images for this kind of result (and so whether reading
    /// them is worth a disk look-up).
    func readsEncodedImages(for request: ImageRequest, processed: Bool) -> Bool {
        guard configuration.dataCache != nil, !request.options.contains(.disableDiskCacheReads),
              !request.options.contains(.reloadIgnoringCachedData) else { return false }
        return storesEncodedImages(for: request, processed: processed)
    }

    private func storesEncodedImages(for request: ImageRequest, processed: Bool) -> Bool {
        guard !isLocal(request) else { return false }
        let transformed = processed || request.thumbnail != nil
        switch configuration.dataCachePolicy {
        case .storeOriginalData: return false
        case .storeEncodedImages: return true
        case .storeAll, .automatic: return transformed
        }
    }

    /// Stores the downloaded bytes of a request whose decode came out clean, when the policy
    /// keeps original data.
    func storeOriginalDataIfNeeded(_ data: Data, for request: ImageRequest) {
        guard let dataCache = configuration.dataCache, !request.options.contains(.disableDiskCacheWrites),
              !isLocal(request), let key = request.imageID else { return }
        let hasTransform = !request.processors.isEmpty || request.thumbnail != nil
        let storesOriginal: Bool
        switch configuration.dataCachePolicy {
        case .storeOriginalData, .storeAll: storesOriginal = true
        case .automatic: storesOriginal = !hasTransform
        case .storeEncodedImages: storesOriginal = false
        }
        guard storesOriginal else { return }
        dataCache.storeData(data, for: key)
    }

    /// Stores a final, clean result in the memory cache and, when the policy says so, encoded in
    /// the disk cache.
    func store(_ result: ImageResult, key: ImageKey, request: ImageRequest, processed: Bool) {
        guard result.isClean, !result.isPreview else { return }
        if let cache = configuration.imageCache, !request.options.contains(.disableMemoryCacheWrites), result.cacheType != .memory {
            cache[key.memoryKey] = CachedImage(image: result.image)
        }
        guard result.cacheType == nil, let dataCache = configuration.dataCache,
              !request.options.contains(.disableDiskCacheWrites),
              storesEncodedImages(for: request, processed: processed) else { return }
        let image = result.image
        let diskKey = key.diskKey
        dataCachingQueue.add(priority: .low) { finish in
            DispatchQueue.global(qos: .utility).async {
                // Opaque images as JPEG (small), others as PNG (keeps alpha).
                let data = image.isOpaque ? try? image.jpegData(compressionQuality: 0.9) : try? image.pngData()
                if let data { dataCache.storeData(data, for: diskKey) }
                finish()
            }
        }
    }

    /// Reads and decodes an encoded image from the disk cache off the coordinator, then calls
    /// `completion` on the coordinator (`nil` on a miss or a bad entry).
    func readEncodedImage(key: String, priority: ImageRequest.Priority, owner: Job<ImageResult>,
                          completion: @escaping @Sendable (Image?) -> Void) {
        guard let dataCache = configuration.dataCache else { return completion(nil) }
        let options = configuration.decodingOptions
        owner.workItem = dataCachingQueue.add(priority: priority) { finish in
            DispatchQueue.global(qos: .userInitiated).async {
                let image = dataCache.cachedData(for: key).flatMap { data -> Image? in
                    guard let decoded = try? ImageDecoders.decode(data, options: options), decoded.isClean else { return nil }
                    return decoded.image
                }
                self.queue.async {
                    finish()
                    if image != nil { self.metrics.record { $0.diskCacheHits += 1 } }
                    completion(image)
                }
            }
        }
    }
}
