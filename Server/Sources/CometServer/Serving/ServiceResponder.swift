import Comet
import Foundation
import Locking
import Logging
import Tracing

/// The service's request path, without HTTP: answers a checked request (a thumbnail's or an
/// `/info` one's, ``ServiceRequest``) from the result store, which has the ``ResultMaker``
/// make the result, within the load shedder's bounds, when it holds none; then 304 when the
/// client's `If-None-Match` names the result's ETag.
///
/// The maker's pipeline coalesces equal work across clients; the store shares finished
/// results (and, for a shared store, their making) across instances. Thread-safe; one per
/// server.
public final class ServiceResponder: Sendable {
    /// The configuration it was made with.
    public let configuration: ServerConfiguration
    /// What makes results: the pipelines, the fetcher, the deadline.
    public let maker: ResultMaker
    /// Where results are kept.
    public let store: any SharedResultStoring
    /// The bound on concurrent and queued work.
    public let shedder: LoadShedder
    /// The metrics.
    public let metrics: ServerMetrics
    /// The tracer of requests' spans (``ServerConfiguration/tracer``, else the bootstrapped one).
    public var tracer: any Tracer { maker.tracer }

    /// Creates the service, its result maker and its load shedder.
    /// Default: a ``LocalResultStore``, fresh metrics, a logger labelled `comet.server`.
    public init(
        configuration: ServerConfiguration, store: any SharedResultStoring = LocalResultStore(),
        metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "comet.server")
    ) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
        maker = ResultMaker(
            configuration: configuration, metrics: metrics,
            tracer: configuration.tracer ?? InstrumentationSystem.tracer, logger: logger)
        shedder = LoadShedder(
            maximumConcurrent: configuration.maximumConcurrentWork,
            maximumQueued: configuration.maximumQueuedWork,
            retryAfter: configuration.retryAfterSeconds,
            onChange: { [metrics] active, queued in metrics.recordLoad(active: active, queued: queued) })
    }

    /// Answers a thumbnail URL's `path` (imgproxy's grammar, ``ThumbnailPath``), with the
    /// request's `Accept` and `If-None-Match` headers. Throws the ``ServiceError`` to answer with.
    public func answer(path: String, accept: String?, ifNoneMatch: String?) async throws(ServiceError)
        -> ServiceAnswer
    {
        let request = try ThumbnailRequest(path: path, accept: accept, configuration: configuration)
        if let answer = storedAnswer(for: request, ifNoneMatch: ifNoneMatch) { return answer }
        return try await answer(request, ifNoneMatch: ifNoneMatch)
    }

    /// The answer to `request` from a result the store holds at hand (its
    /// `storedResult(for:)`), without suspending; `nil` when it holds none (then
    /// ``answer(_:ifNoneMatch:)`` answers). Records a `store` span, a hit.
    public func storedAnswer(for request: some ServiceRequest, ifNoneMatch: String?) -> ServiceAnswer? {
        guard let result = store.storedResult(for: request.storeKey) else { return nil }
        if maker.traces {
            let span = tracer.startAnySpan("store")
            span.attributes["comet.cache"] = "hit"
            span.end()
        }
        return answer(result, for: request, isStored: true, ifNoneMatch: ifNoneMatch)
    }

    /// Answers a checked request from the result store, which has the maker make the result
    /// (within the load shedder's bounds and the processing time limit) when it holds none.
    /// Records a `store` span (`comet.cache` hit or miss), the making's spans its children.
    public func answer(_ request: some ServiceRequest, ifNoneMatch: String?) async throws(ServiceError)
        -> ServiceAnswer
    {
        let result: StoredResult
        let made = Locked(false)
        do {
            result = try await tracer.withAnySpan("store") { span in
                defer { span.attributes["comet.cache"] = made.withLock { $0 } ? "miss" : "hit" }
                return try await store.result(for: request.storeKey, ttl: configuration.resultTTL) { [self] in
                    made.withLock { $0 = true }
                    return try await shedder.run { try await request.makeResult(with: maker) }
                }
            }
        } catch {
            throw ServiceError.from(error)
        }
        return answer(result, for: request, isStored: !made.withLock { $0 }, ifNoneMatch: ifNoneMatch)
    }

    private func answer(
        _ result: StoredResult, for request: some ServiceRequest, isStored: Bool, ifNoneMatch: String?
    ) -> ServiceAnswer {
        let headers = request.cachingHeaders(for: result, isStored: isStored, configuration: configuration)
        if let ifNoneMatch, ETag.matches(ifNoneMatch, etag: result.etag) {
            return .notModified(etag: result.etag, headers: headers)
        }
        return .result(result, headers: headers)
    }
}
