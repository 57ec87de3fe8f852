import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches the bytes of a request: from the disk cache when allowed, else from the data loader
/// (through the rate limiter and the data-loading queue). While loading it sends each chunk as a
/// non-final value when progressive decoding is on, then the whole data as the final value.
/// Nothing is written to any cache here: what is stored is decided once the bytes decoded clean.
final class FetchDataJob: Job<FetchedData>, @unchecked Sendable {
    private let request: ImageRequest
    private let key: String
    private let context: PipelineContext // strong: in-flight work outlives a released pipeline
    private var buffer = Data()
    private var response: URLResponse?
    private var expectedLength: Int64 = 0
    private var loadingTask: (any DataLoadingTask)?
    private var swiftTask: Task<Void, Never>?

    init(request: ImageRequest, key: String, context: PipelineContext) {
        self.request = request
        self.key = key
        self.context = context
    }

    override func start() {
        let options = request.options
        if let dataCache = context.configuration.dataCache,
           !options.contains(.disableDiskCacheReads), !options.contains(.reloadIgnoringCachedData) {
            let key = self.key
            workItem = context.dataCachingQueue.add(priority: priority) { finish in
                DispatchQueue.global(qos: .userInitiated).async {
                    let data = dataCache.cachedData(for: key)
                    self.context.queue.async {
                        finish()
                        self.didReadDiskCache(data)
                    }
                }
            }
        } else {
            loadData()
        }
    }

    private func didReadDiskCache(_ data: Data?) {
        guard !isDone else { return }
        if let data, !data.isEmpty {
            context.metrics.record { $0.diskCacheHits += 1 }
            send(.value(FetchedData(data: data, response: nil, cacheType: .disk), isCompleted: true))
        } else {
            loadData()
        }
    }

    private func loadData() {
        guard !isDone else { return }
        if request.options.contains(.returnCacheDataDontLoad) {
            send(.error(.dataMissingInCache(request: request)))
            return
        }
        if request.options.contains(.skipDataLoadingQueue) {
            startLoading(finish: {})
            return
        }
        let enqueue = { [weak self] in
            guard let self else { return }
            self.workItem = self.context.dataLoadingQueue.add(priority: self.priority) { [weak self] finish in
                guard let self, !self.isDone else { return finish() }
                self.startLoading(finish: finish)
            }
        }
        if context.configuration.isRateLimiterEnabled {
            context.rateLimiter.execute { [weak self] in
                guard let self, !self.isDone else { return false }
                enqueue()
                return true
            }
        } else {
            enqueue()
        }
    }

    private func startLoading(finish: @escaping @Sendable () -> Void) {
        context.metrics.record { $0.downloadsStarted += 1 }
        context.log("start loading \(key)")
        switch request.resource {
        case .closure(_, let load):
            swiftTask = Task {
                let result: Result<Data, any Error>
                do { result = .success(try await load()) } catch { result = .failure(error) }
                self.context.queue.async {
                    finish()
                    switch result {
                    case .success(let data):
                        self.didReceive(data, response: nil)
                        self.didFinish(nil)
                    case .failure(let error):
                        self.didFinish(error)
                    }
                }
            }
        case .url, .urlRequest:
            guard let urlRequest = request.urlRequest, urlRequest.url != nil else {
                finish()
                send(.error(.invalidRequest(request: request, reason: "it has no URL")))
                return
            }
            let task = context.configuration.dataLoader.loadData(
                with: urlRequest,
                didReceiveData: { data, response in
                    let chunk = FetchedData(data: data, response: response, cacheType: nil)
                    self.context.queue.async { self.didReceive(chunk.data, response: chunk.response) }
                },
                completion: { error in
                    let error = error.map(SendableError.init)
                    self.context.queue.async {
                        finish()
                        self.didFinish(error?.error)
                    }
                }
            )
            loadingTask = task
            workItem?.setCancellationHandler { task.cancel() }
        }
    }

    override func didCancel() {
        loadingTask?.cancel()
        swiftTask?.cancel()
    }

    private func didReceive(_ chunk: Data, response: URLResponse?) {
        guard !isDone else { return }
        if self.response == nil, let response {
            self.response = response
            expectedLength = max(0, response.expectedContentLength)
        }
        buffer.append(chunk)
        context.metrics.record { $0.bytesLoaded += chunk.count }
        if let limit = context.configuration.maximumResponseDataSize, buffer.count > limit {
            loadingTask?.cancel()
            send(.error(.responseTooLarge(request: request, limit: limit)))
            return
        }
        send(.progress(completed: Int64(buffer.count), total: expectedLength))
        if context.configuration.isProgressiveDecodingEnabled {
            send(.value(FetchedData(data: chunk, response: response, cacheType: nil), isCompleted: false))
        }
    }

    /// A subscriber that joins mid-download gets everything received so far as one chunk.
    override func didAddLateSubscriber(_ subscription: Subscription) {
        guard context.configuration.isProgressiveDecodingEnabled, !buffer.isEmpty else { return }
        send(.value(FetchedData(data: buffer, response: response, cacheType: nil), isCompleted: false), to: subscription)
    }

    private func didFinish(_ error: (any Error)?) {
        guard !isDone else { return }
        if let error {
            context.log("loading \(key) failed: \(error)")
            switch error {
            case DataLoaderError.responseTooLarge(let limit):
                send(.error(.responseTooLarge(request: request, limit: limit)))
            case DataLoaderError.statusCode(let status):
                send(.error(.dataLoadingFailed(request: request, statusCode: status, underlying: error)))
            default:
                send(.error(.dataLoadingFailed(request: request, statusCode: nil, underlying: error)))
            }
        } else if buffer.isEmpty {
            send(.error(.dataIsEmpty(request: request)))
        } else {
            send(.value(FetchedData(data: buffer, response: response, cacheType: nil), isCompleted: true))
        }
    }
}
