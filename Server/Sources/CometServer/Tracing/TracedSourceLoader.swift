import Comet
import Foundation
import Locking
import Tracing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``SourceFetcher`` for one download, traced: a `fetch` client span, child of the request
/// that started the download, with the source's host, the status and the bytes received; the
/// trace context is passed on to the origin in the request's headers (`traceparent` with a W3C
/// tracer).
///
/// The pipeline asks for one per download (its `dataLoader` hook), so a download shared by
/// coalesced requests belongs to the trace of the request that started it. Thread-safe.
struct TracedSourceLoader: DataLoading {
    let fetcher: SourceFetcher
    let tracer: any Tracer
    let context: ServiceContext

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let span = tracer.startAnySpan("fetch", context: context, ofKind: .client)
        span.attributes["server.address"] = request.url?.host
        span.attributes["url.full"] = request.url?.absoluteString
        var request = request
        tracer.inject(span.context, into: &request, using: URLRequestInjector())
        let received = ReceivedBytes()
        return fetcher.loadData(
            with: request,
            didReceiveData: { data, response in
                received.add(data.count, status: (response as? HTTPURLResponse)?.statusCode)
                didReceiveData(data, response)
            },
            completion: { error in
                let (bytes, status) = received.totals
                span.attributes["http.response.body.size"] = bytes
                if let status { span.attributes["http.response.status_code"] = status }
                if let error { span.recordError(error) }
                span.end()
                completion(error)
            })
    }
}

/// What a fetch has received so far (its callbacks may come from any thread).
private final class ReceivedBytes: Sendable {
    private let state = Locked<(bytes: Int, status: Int?)>((0, nil))
    func add(_ count: Int, status: Int?) {
        state.withLock {
            $0.bytes += count; $0.status = status ?? $0.status
        }
    }
    var totals: (bytes: Int, status: Int?) { state.withLock { $0 } }
}
