import Locking
import Dispatch
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads images: fetches data (with a disk cache), decodes, processes, caches in memory, and
/// delivers through async/await, completion handlers or ``ImageTask`` events.
///
/// Equal requests share work: N tasks for one URL cause one download, one decode and one run of
/// each shared processor prefix. Work is prioritised, rate-limited and bounded per stage; heavy
/// work (decoding, processing, encoding, disk I/O) never runs on the caller's thread or in the
/// pipeline's graph. The execution model, and every context a request passes through, is
/// described by `PipelineExecutor` (Sources/Comet/Engine) and, as one table, by
/// docs/architecture.md.
///
/// Thread-safe: use one pipeline from anywhere.
public final class ImagePipeline: Sendable {
    /// The configuration the pipeline was made with.
    public let configuration: Configuration
    let context: PipelineContext
    private let activeTasks = Locked<[Int64: ImageTask]>([:])
    private let isInvalidated = Atomic<Bool>(false)

    private static let sharedPipeline = Locked<ImagePipeline?>(nil)

    /// The pipeline used by code that does not name one. Default: a pipeline with the default
    /// configuration (no disk cache), created on first use. Settable.
    public static var shared: ImagePipeline {
        get {
            sharedPipeline.withLock { shared in
                if let shared { return shared }
                let pipeline = ImagePipeline()
                shared = pipeline
                return pipeline
            }
        }
        set { sharedPipeline.withLock { $0 = newValue } }
    }

    /// Creates a pipeline.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.context = PipelineContext(configuration: configuration)
    }

    /// Creates a pipeline, letting `configure` adjust the default configuration.
    public convenience init(_ configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }

    /// Counters of what the pipeline has done.
    public var metrics: Metrics { context.metrics.current }

    // MARK: Loading

    /// Loads the image for `request`. Throws ``Error``; cancelling the calling Swift task cancels
    /// the load. A memory-cache hit returns without any hop to another thread.
    public func image(for request: ImageRequest) async throws -> Image {
        if let cached = memoryCacheHit(for: request) { return cached.image }
        // The caller suspends right after this: its thread may as well run the graph's part.
        return try await makeTask(
            request, entersGraphInline: true, checksMemoryCache: false, progress: nil, completion: nil
        ).image
    }

    /// Loads the image at `url`.
    public func image(for url: URL) async throws -> Image {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading `request` and returns its task (await ``ImageTask/response``, or watch
    /// ``ImageTask/events``).
    public func imageTask(with request: ImageRequest) -> ImageTask {
        makeTask(request, entersGraphInline: false, progress: nil, completion: nil)
    }

    /// Starts loading the image at `url` (see ``imageTask(with:)-(ImageRequest)``).
    public func imageTask(with url: URL) -> ImageTask {
        imageTask(with: ImageRequest(url: url))
    }

    /// Starts loading the image at `url`; `completion` runs once on
    /// ``Configuration/callbackQueue`` (see ``loadImage(with:progress:completion:)-(ImageRequest,_,_)``).
    @discardableResult
    public func loadImage(
        with url: URL,
        progress: (@Sendable (_ preview: ImageResponse?, _ progress: ImageTask.Progress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResponse, Error>) -> Void
    ) -> ImageTask {
        loadImage(with: ImageRequest(url: url), progress: progress, completion: completion)
    }

    /// Starts loading `request`; `completion` runs once on ``Configuration/callbackQueue`` with
    /// the response or the error (``Error/cancelled(request:)`` after a cancel). `progress`, if
    /// given, runs there too with progressive previews and byte counts.
    @discardableResult
    public func loadImage(
        with request: ImageRequest,
        progress: (@Sendable (_ preview: ImageResponse?, _ progress: ImageTask.Progress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResponse, Error>) -> Void
    ) -> ImageTask {
        makeTask(request, entersGraphInline: false, progress: progress, completion: completion)
    }

    /// Loads the data of `request` without decoding it (through the disk cache and the same
    /// coalescing as images). Downloaded bytes that the cache policy keeps are decoded once on a
    /// worker, to store only clean images, before this returns; bytes from the disk cache are
    /// returned as they are. Throws ``Error``.
    public func data(for request: ImageRequest) async throws -> (Data, URLResponse?) {
        let box = DataRequestBox()
        let context = self.context
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(Data, URLResponse?), any Swift.Error>) in
                context.executor.performWaitingBriefly { [self] graph in
                    guard !isInvalidated.load(ordering: .relaxed) else {
                        return continuation.resume(throwing: Error.pipelineInvalidated(request: request))
                    }
                    box.start(
                        makeJob: { graph in context.fetchDataJob(for: request, graph) },
                        priority: request.priority, graph
                    ) { graph, result in
                        guard case .success(let fetched) = result, fetched.cacheType == nil,
                            context.cachePolicy.storesOriginalData(for: request)
                        else {
                            return continuation.resume(
                                with: result.map { ($0.data, $0.response) }.mapError { $0 as any Swift.Error })
                        }
                        context.storeOriginalDataIfClean(fetched.data, for: request, graph) {
                            continuation.resume(returning: (fetched.data, fetched.response))
                        }
                    }
                }
            }
        } onCancel: {
            context.executor.schedule { graph in box.cancel(request: request, graph) }
        }
    }

    /// The memory-cached final image for `request`, honouring the request's cache options; counts a
    /// memory hit and a started task in the metrics when found.
    func memoryCacheHit(for request: ImageRequest) -> CachedImage? {
        guard let cached = memoryCachedImage(for: request) else { return nil }
        context.metrics.record(.memoryCacheHits)
        context.metrics.record(.tasksStarted)
        return cached
    }

    /// The memory-cached final image a load of `request` would use (honouring its cache
    /// options), without counting anything.
    func memoryCachedImage(for request: ImageRequest) -> CachedImage? {
        guard let cache = configuration.imageCache, !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData),
            let cached = cache[request.memoryCacheKey], !cached.isPreview
        else { return nil }
        return cached
    }

    /// `checksMemoryCache`: `false` when the caller has just looked (``image(for:)-(ImageRequest)``).
    private func makeTask(
        _ request: ImageRequest,
        entersGraphInline: Bool,
        checksMemoryCache: Bool = true,
        progress: (@Sendable (ImageResponse?, ImageTask.Progress) -> Void)?,
        completion: (@Sendable (Result<ImageResponse, Error>) -> Void)?
    ) -> ImageTask {
        let task = ImageTask(
            request: request, pipeline: self, callbackQueue: configuration.callbackQueue,
            progress: progress, completion: completion)
        if isInvalidated.load(ordering: .relaxed) {
            task.finish(.failure(.pipelineInvalidated(request: request)))
            return task
        }
        if checksMemoryCache, let cached = memoryCacheHit(for: request) {
            task.finish(.success(ImageResponse(memoryCacheHit: cached, request: request)))
            return task
        }
        context.metrics.record(.tasksStarted)
        configuration.logger.trace("task \(task.taskId) started: \(request)")
        activeTasks.withLock { $0[task.taskId] = task }
        // Captures the task alone: no closure context to allocate.
        let start: @Sendable (borrowing GraphToken) -> Void = { graph in task.startDirect(graph) }
        if entersGraphInline { context.executor.performWaitingBriefly(start) } else { context.executor.schedule(start) }
        return task
    }

    func taskDidFinish(_ task: ImageTask, result: Result<ImageResponse, Error>) {
        activeTasks.withLock { _ = $0.removeValue(forKey: task.taskId) }
        switch result {
        case .success(let response):
            configuration.logger.debug(
                "task \(task.taskId) finished: \(task.request) → \(response.image)\(response.cacheType.map { " from the \($0) cache" } ?? "")"
            )
        case .failure(let error):
            configuration.logger.debug("task \(task.taskId) failed: \(error)")
        }
    }

    /// Tasks that have not finished.
    var activeTaskCount: Int { activeTasks.withLock { $0.count } }

    #if DEBUG
        /// Jobs of the task graph that have not finished (0 when the pipeline is quiet). Waits for
        /// the graph; tests, debug builds only.
        var activeJobCount: Int { context.executor.sync { [context] graph in context.activeJobCount(graph) } }
    #endif

    /// Cancels every task (they fail with ``Error/pipelineInvalidated(request:)``) and makes every
    /// later request fail the same way. Caches are left as they are, and nothing that finishes
    /// afterwards is written to them.
    public func invalidate() {
        guard !isInvalidated.exchange(true, ordering: .relaxed) else { return }
        context.isInvalidated.store(true, ordering: .relaxed)
        let tasks = activeTasks.withLock { tasks in
            defer { tasks = [:] }
            return Array(tasks.values)
        }
        for task in tasks {
            task.finish(.failure(.pipelineInvalidated(request: task.request)))
            context.executor.schedule { graph in task.detach(graph) }
        }
    }
}

/// The subscription of one `data(for:)` call (confined to the pipeline's graph).
private final class DataRequestBox: @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor).
    private var subscription: Job<FetchedData>.Subscription?
    private var completion: ((borrowing GraphToken, Result<FetchedData, ImagePipeline.Error>) -> Void)?
    /// The cancel can reach the graph before the start (a task cancelled before the call), so it
    /// is remembered and the start then ends at once without subscribing.
    private var cancelledRequest: ImageRequest?

    func start(
        makeJob: (borrowing GraphToken) -> FetchDataJob, priority: ImageRequest.Priority, _ graph: borrowing GraphToken,
        completion: @escaping (borrowing GraphToken, Result<FetchedData, ImagePipeline.Error>) -> Void
    ) {
        if let request = cancelledRequest {
            return completion(graph, .failure(.cancelled(request: request)))
        }
        self.completion = completion
        let job = makeJob(graph)
        subscription = job.subscribe(priority: priority, graph) { [weak self] graph, event in
            switch event {
            case .value(let fetched, isCompleted: true): self?.complete(.success(fetched), graph)
            case .error(let error): self?.complete(.failure(error), graph)
            case .value, .progress: break
            }
        }
    }

    func cancel(request: ImageRequest, _ graph: borrowing GraphToken) {
        cancelledRequest = request
        subscription?.unsubscribe(graph)
        complete(.failure(.cancelled(request: request)), graph)
    }

    private func complete(_ result: Result<FetchedData, ImagePipeline.Error>, _ graph: borrowing GraphToken) {
        subscription = nil
        let completion = self.completion
        self.completion = nil
        completion?(graph, result)
    }
}
