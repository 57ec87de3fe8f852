import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the bytes of a request: from the disk cache when allowed, else from the data loader
/// (through the rate limiter and the data-loading queue). While loading it sends each chunk as a
/// non-final value when progressive decoding is on, then the whole data as the final value.
/// Nothing is written to any cache here: what is stored is decided once the bytes decoded clean.
///
/// The loader is started in the graph; its chunks and completion re-enter the graph from the
/// loader's threads, and its data-loading work item runs until the transfer completes.
///
/// A transient failure is retried as the request's ``ImagePipeline/RetryPolicy`` says: the
/// work item finishes, the wait runs in a Swift task outside the graph (cancelled with the job), and
/// the next attempt queues again like a new download. What a failed attempt received is
/// dropped; after a retry no more progressive chunks are sent (a decoder fed from two attempts
/// would mix them), so the final image is decoded from the final attempt's bytes alone.
///
/// Resumable downloads: when an HTTP download that can be resumed (see ``ResumableData``)
/// fails or is cancelled after some bytes, they are kept in the pipeline's
/// ``ResumableDataStore``; the next load of the URL (a retry included) asks for the rest with
/// `Range` and `If-Range`. A matching 206 continues the kept bytes; a 200 is a full body (the
/// kept bytes are dropped); a 206 for another range is dropped and the load starts again in
/// full. Only a complete body is ever sent as the final value.
final class FetchDataJob: Job<FetchedData>, @unchecked Sendable {
    // @unchecked Sendable: confined to the pipeline's graph (PipelineExecutor), as every Job.
    private let request: ImageRequest
    private let key: DataLoadKey
    private let context: PipelineContext  // strong: in-flight work outlives a released pipeline
    private var buffer = Data()
    /// Whether ``buffer`` was sized for the declared length (then chunks are appended to it).
    private var isBufferReserved = false
    private var response: URLResponse?
    private var expectedLength: Int64 = 0
    private var loadingTask: (any DataLoadingTask)?
    private var loader: (any DataLoading)?
    /// The data-loading queue's item of the transfer in flight, finished when it completes.
    private var loadingItem: WorkQueue.Item?
    /// The kept bytes of an earlier load that this attempt continues: asked for until the
    /// response (``FetchLifecycle/Transfer/awaitingResponse(resuming:)``), then the first bytes of
    /// ``buffer`` (``FetchLifecycle/Transfer/receiving(resumed:)``); dropped when the response
    /// does not continue them.
    private var kept: ResumableData?
    /// The load of a closure resource (``ImageRequest/Resource/closure(id:load:)``), cancelled with the job.
    private var closureLoad: Task<Void, Never>?
    private var retryWait: Task<Void, Never>?
    /// Where the fetch is, and what each event makes of it.
    private var lifecycle: FetchLifecycle

    init(request: ImageRequest, key: DataLoadKey, context: PipelineContext) {
        self.request = request
        self.key = key
        self.context = context
        self.lifecycle = FetchLifecycle(sendsChunks: context.configuration.isProgressiveDecodingEnabled)
        super.init(executor: context.executor)
    }

    override func didEnd(_ graph: borrowing GraphToken) {
        lifecycle.end()  // delivered, failed or cancelled
        context.removeFromPool(self, key: key, graph)
    }

    override func start(_ graph: borrowing GraphToken) {
        let dataCache = context.cachePolicy.readsOriginalData(for: request) ? context.dataCache(for: request) : nil
        switch lifecycle.start(readsDiskCache: dataCache != nil) {
        case .ignore: return
        case .load: return loadData(graph)
        case .readDiskCache: break
        }
        guard let dataCache else { return loadData(graph) }
        let key = context.dataCacheKey(for: request) ?? self.key.dataKey
        let item = context.dataCachingQueue.run(
            priority: priority(graph), graph, { dataCache.cachedData(for: key) },
            then: { [weak self] graph, data in
                self?.didReadDiskCache(data, graph)
            })
        setWorkItem(item, graph)
    }

    private func didReadDiskCache(_ data: Data?, _ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        switch lifecycle.diskCacheRead(found: data?.isEmpty == false) {
        case .deliverCachedData:
            context.metrics.record(.diskCacheHits)
            send(.value(FetchedData(data: data ?? Data(), response: nil, cacheType: .disk), isCompleted: true), graph)
        case .load:
            loadData(graph)
        case .ignore:
            break
        }
    }

    private func loadData(_ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        if request.options.contains(.returnCacheDataDontLoad) {
            send(.error(.dataMissingInCache(request: request)), graph)
            return
        }
        if request.options.contains(.skipDataLoadingQueue) {
            startLoading(item: nil, graph)
            return
        }
        guard let rateLimiter = context.rateLimiter else { return enqueue(graph) }
        rateLimiter.execute(host: request.url?.host, graph) { [weak self] graph in
            guard let self, !self.isDone(graph) else { return false }
            self.enqueue(graph)
            return true
        }
    }

    private func enqueue(_ graph: borrowing GraphToken) {
        // Strong `self` (no side table for a weak one): the item drops this closure when it
        // starts or is cancelled.
        let item = context.dataLoadingQueue.add(priority: priority(graph), graph) { graph, item in
            guard !self.isDone(graph) else { return item.finish(graph) }
            self.startLoading(item: item, graph)
        }
        setWorkItem(item, graph)
    }

    /// Starts the transfer; `item` (the data-loading queue's, `nil` when the request skips the
    /// queue) finishes when it completes.
    private func startLoading(item: WorkQueue.Item?, _ graph: borrowing GraphToken) {
        context.metrics.record(.downloadsStarted)
        context.log("start loading \(key)")
        let executor = context.executor
        switch request.resource {
        case .closure(_, let load):
            lifecycle.transferStarted(resuming: false)
            closureLoad = Task {
                let result: Result<Data, any Error>
                do { result = .success(try await load()) } catch { result = .failure(error) }
                executor.perform { graph in
                    item?.finish(graph)
                    switch result {
                    case .success(let data):
                        self.didReceive(data, response: nil, graph)
                        self.didFinish(nil, graph)
                    case .failure(let error):
                        self.didFinish(error, graph)
                    }
                }
            }
        case .url, .urlRequest:
            guard var urlRequest = request.urlRequest, let url = urlRequest.url else {
                item?.finish(graph)
                send(.error(.invalidRequest(request: request, reason: "it has no URL")), graph)
                return
            }
            if let store = context.resumableData, (urlRequest.httpMethod ?? "GET") == "GET",
                urlRequest.value(forHTTPHeaderField: "Range") == nil, let partial = store.take(for: url.absoluteString)
            {
                kept = partial
                urlRequest = partial.resumingRequest(urlRequest)
            }
            lifecycle.transferStarted(resuming: kept != nil)
            let loader = context.dataLoader(for: request)
            self.loader = loader  // a loader made by a hook for this load lives as long as the load
            loadingItem = item
            // The callbacks capture the job alone (its executor is a property), so they need no
            // closure contexts of their own.
            let task = loader.loadData(
                with: urlRequest,
                delivery: lifecycle.sendsChunks ? .eachChunk : .batched,
                didReceiveData: { data, response in self.loaderDidReceive(data, response: response) },
                completion: { error in self.loaderDidComplete(error) }
            )
            loadingTask = task  // cancelled by didCancel() (once, whether or not it has a queue item)
        }
    }

    /// From the loader's thread: a chunk.
    private func loaderDidReceive(_ data: Data, response: URLResponse) {
        let chunk = FetchedData(data: data, response: response, cacheType: nil)
        executor.perform { graph in self.didReceive(chunk.data, response: chunk.response, graph) }
    }

    /// From the loader's thread: the end of the transfer. A success enters the graph with a
    /// closure that captures the job alone (no closure context to allocate).
    private func loaderDidComplete(_ error: (any Error)?) {
        guard let error else {
            return executor.perform { graph in self.finishLoading(nil, graph) }
        }
        executor.perform { graph in self.finishLoading(error, graph) }
    }

    /// In the graph: finishes the data-loading item and ends the attempt.
    private func finishLoading(_ error: (any Error)?, _ graph: borrowing GraphToken) {
        loadingItem?.finish(graph)
        loadingItem = nil
        // A loader's task may keep the callbacks, which hold this job: let it go, so the job
        // (and its buffer) never depends on the loader to break that cycle.
        loadingTask = nil
        didFinish(error, graph)
    }

    override func didCancel(_ graph: borrowing GraphToken) {
        keepPartialData()
        loadingTask?.cancel()
        closureLoad?.cancel()
        retryWait?.cancel()
    }

    /// Sizes the buffer for the declared length once, so the body is not copied into a larger
    /// buffer at every doubling (each copy leaves a freed block behind in the heap). Only up to
    /// ``reservedBufferLimit`` and the response size limit: a declared length is not trusted
    /// with a large allocation before the bytes arrive.
    private func reserveBuffer() {
        let limit = min(context.configuration.maximumResponseDataSize ?? Int.max, Self.reservedBufferLimit)
        guard expectedLength > 0, expectedLength <= Int64(limit), Int64(buffer.count) < expectedLength else { return }
        buffer.reserveCapacity(Int(expectedLength))
        isBufferReserved = true
    }

    private static let reservedBufferLimit = 16 << 20

    private func didReceive(_ chunk: Data, response: URLResponse?, _ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        if let response, lifecycle.isAwaitingResponse {
            switch lifecycle.responseArrived(responseKind(response)) {
            case .accept(let isResumed):
                if !isResumed { kept = nil }
                if isResumed, let partial = kept {
                    buffer = partial.data
                    if lifecycle.sendsChunks {
                        send(
                            .value(
                                FetchedData(data: partial.data, response: response, cacheType: nil), isCompleted: false),
                            graph)
                    }
                }
                self.response = response
                expectedLength = kept.map { Int64($0.totalLength) } ?? max(0, response.expectedContentLength)
                if !(buffer.isEmpty && Int64(chunk.count) >= expectedLength) { reserveBuffer() }
            case .cancelTransfer:
                kept = nil
                loadingTask?.cancel()
                return
            case .ignore:
                break
            }
        }
        // An empty chunk carries the response of an empty body (DataLoading's contract) and
        // nothing else: no bytes to count or send, and the end still fails the empty body.
        guard !chunk.isEmpty else { return }
        guard case .append(let sendsChunk) = lifecycle.chunkArrived() else { return }
        // A first chunk that is the whole body (or of a body of unknown length) becomes the
        // buffer as it is: no allocation, no copy.
        if buffer.isEmpty && !isBufferReserved {
            buffer = chunk
        } else {
            buffer.append(chunk)
        }
        context.metrics.record(.bytesLoaded, chunk.count)
        if let limit = context.configuration.maximumResponseDataSize, buffer.count > limit {
            loadingTask?.cancel()
            send(.error(.responseTooLarge(request: request, limit: limit)), graph)
            return
        }
        send(.progress(completed: Int64(buffer.count), total: expectedLength), graph)
        if sendsChunk {
            send(.value(FetchedData(data: chunk, response: response, cacheType: nil), isCompleted: false), graph)
        }
    }

    /// What `response` is to the kept bytes this attempt asked to continue.
    private func responseKind(_ response: URLResponse) -> FetchLifecycle.ResponseKind {
        guard let partial = kept, let http = response as? HTTPURLResponse, http.statusCode == 206 else {
            return .wholeBody
        }
        return partial.isContinued(by: http) ? .matchingContinuation : .mismatchedContinuation
    }

    /// A subscriber that joins mid-download gets everything received so far as one chunk.
    override func didAddLateSubscriber(_ subscription: Subscription, _ graph: borrowing GraphToken) {
        guard lifecycle.sendsChunks, !buffer.isEmpty else { return }
        send(
            .value(FetchedData(data: buffer, response: response, cacheType: nil), isCompleted: false), to: subscription,
            graph)
    }

    private func didFinish(_ error: (any Error)?, _ graph: borrowing GraphToken) {
        guard !isDone(graph) else { return }
        let retryDelay = error.flatMap(retryDelay(after:))
        switch lifecycle.transferEnded(failed: error != nil, hasBytes: !buffer.isEmpty, retryDelay: retryDelay) {
        case .restartWhole:
            context.log("loading \(key): the server continued other bytes; loading it whole")
            resetAttempt()
            loadData(graph)
        case .retry(let delay):
            keepPartialData()
            context.log(
                "loading \(key) failed (\(error.map { "\($0)" } ?? "")); attempt \(lifecycle.attempt) in \(delay)")
            context.metrics.record(.retries)
            resetAttempt()
            scheduleRetry(after: delay)
        case .fail:
            keepPartialData()
            guard let error else { return }
            context.log("loading \(key) failed: \(error)")
            switch error {
            case DataLoaderError.responseTooLarge(let limit):
                send(.error(.responseTooLarge(request: request, limit: limit)), graph)
            case let loaderError as DataLoaderError where loaderError.httpStatusCode != nil:
                send(
                    .error(
                        .dataLoadingFailed(request: request, statusCode: loaderError.httpStatusCode, underlying: error)),
                    graph)
            default:
                send(.error(.dataLoadingFailed(request: request, statusCode: nil, underlying: error)), graph)
            }
        case .failEmpty:
            send(.error(.dataIsEmpty(request: request)), graph)
        case .deliver:
            send(.value(FetchedData(data: buffer, response: response, cacheType: nil), isCompleted: true), graph)
        case .ignore:
            break
        }
    }

    // MARK: Retries

    /// The wait before the next attempt when the policy allows one after `error`, else `nil`.
    private func retryDelay(after error: any Error) -> Duration? {
        let policy = request.retryPolicy ?? context.configuration.retryPolicy
        guard policy.maximumAttempts > 1 else { return nil }
        return policy.delay(afterAttempt: lifecycle.attempt, failedWith: error)
    }

    /// Waits `delay` in a Swift task outside the graph (cancelled with the job), then loads again.
    private func scheduleRetry(after delay: Duration) {
        let sleep = (request.retryPolicy ?? context.configuration.retryPolicy).sleep
        let executor = context.executor
        retryWait = Task { [weak self] in
            do { try await sleep(delay) } catch { return }  // cancelled with the job
            executor.perform { [weak self] graph in
                guard let self, !self.isDone(graph), self.lifecycle.retryDelayEnded() else { return }
                self.retryWait = nil
                self.loadData(graph)
            }
        }
    }

    // MARK: Resumable downloads

    /// Forgets what the last attempt received (it was kept for resuming if it could be).
    private func resetAttempt() {
        buffer = Data()
        isBufferReserved = false
        response = nil
        expectedLength = 0
        loadingTask = nil
        closureLoad = nil
        kept = nil
    }

    /// Keeps the bytes received so far for the next load of the URL, when they can be resumed
    /// (or puts back the kept bytes this attempt took and never used).
    private func keepPartialData() {
        guard let store = context.resumableData, let url = request.urlRequest?.url else { return }
        guard !buffer.isEmpty else {
            // The attempt ended before its response: put back the kept bytes it took.
            if let kept { store.store(kept, for: url.absoluteString) }
            return
        }
        let partial: ResumableData?
        if let kept {  // the buffer continues them
            partial = ResumableData(data: buffer, validator: kept.validator, totalLength: kept.totalLength)
        } else {
            partial = ResumableData(data: buffer, response: response)
        }
        if let partial, partial.data.count < partial.totalLength { store.store(partial, for: url.absoluteString) }
    }
}
