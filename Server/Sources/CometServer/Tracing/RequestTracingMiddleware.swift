import HTTPTypes
import Hummingbird
import Logging
import Tracing

/// Traces each request and writes its access-log line.
///
/// - A `server` span per request, continuing the trace of the incoming headers
///   (`traceparent` with a W3C tracer), with the method, the path, the status and the body size.
///   The service's own spans (`store`, `image`, `fetch`, `encode`) are its children.
/// - One structured log line per request at `info` (`access`), with the method, the path, the
///   status, the bytes sent, the duration in milliseconds and the cache outcome (`X-Cache`:
///   `hit` for a stored result, `miss` for one made for this request).
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: any Tracer
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var serviceContext = ServiceContext.current ?? .topLevel
        tracer.extract(request.headers, into: &serviceContext, using: HTTPFieldsExtractor())
        let started = ContinuousClock.now
        let span = tracer.startAnySpan(
            "\(request.method.rawValue) \(Self.route(of: request.uri.path))", context: serviceContext,
            ofKind: .server)
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.path"] = request.uri.path
        defer { span.end() }
        let response: Response
        do {
            response = try await ServiceContext.withValue(span.context) { try await next(request, context) }
        } catch {
            span.recordError(error)
            throw error
        }
        let status = response.status.code
        let bytes = response.body.contentLength ?? 0
        let cache = response.headers[.xCache]?.lowercased() ?? "-"
        span.attributes["http.response.status_code"] = status
        span.attributes["http.response.body.size"] = bytes
        if status >= 500 { span.setStatus(.init(code: .error)) }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "access",
            metadata: [
                "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": "\(status)",
                "bytes": "\(bytes)", "duration_ms": "\((milliseconds * 10).rounded() / 10)", "cache": "\(cache)",
            ])
        return response
    }

    /// The route's template, for span names of bounded cardinality.
    static func route(of path: String) -> String {
        switch path {
        case "/health", "/metrics", "/": path
        case _ where path.hasPrefix("/gallery/"): "/gallery/{name}"
        default: "/{signature}/{options}/{source}"
        }
    }
}
