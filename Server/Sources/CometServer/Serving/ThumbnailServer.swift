import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Locking
import Tracing

/// The HTTP face of ``ServiceResponder`` on Hummingbird 2.
///
/// Routes:
/// - `GET` (and `HEAD`) `/{signature}/{options…}/plain/{source}[@{ext}]` and
///   `/{signature}/{options…}/{base64url(source)}[.{ext}]` (imgproxy's grammar,
///   ``ThumbnailPath``): the image (or 304, or a JSON error)
/// - `GET` (and `HEAD`) `/info/{signature}/{options…}/{source}`: the source's ``SourceInfo`` as
///   JSON (or 304, or a JSON error)
/// - `GET /health`: `{"status":"ok"}`
/// - `GET /metrics`: Prometheus text exposition
/// - with a ``DemoGallery``: `GET /` (the demo page) and `GET /gallery/{name}` (its sources)
/// - anything else: a JSON 404
///
/// Connections are guarded (``ServerConfiguration/connectionLimits``): a request head must
/// arrive within the header-read timeout, a connection with no request in progress closes after
/// the idle timeout, and at the connection limit a new connection closes the one that has waited
/// longest for a head. A client that disconnects cancels the work made for it, unless another
/// request waits for the same result.
///
/// Run the application it makes as a service (`runService()`, or inside a `ServiceGroup`):
/// on graceful shutdown (SIGTERM/SIGINT through swift-service-lifecycle) Hummingbird stops
/// accepting connections and lets requests in flight finish. Thread-safe.
public final class ThumbnailServer: Sendable {
    /// The request path behind the routes.
    public let responder: ServiceResponder
    /// The demo sources, when serving the demo.
    public let demo: DemoGallery?
    private let logger: Logger
    /// Writes one line per request (`comet.server.access`, at `info`).
    private let accessLogger: Logger
    private let boundPort = Locked<Int?>(nil)
    /// The open connections, against ``ServerConfiguration/connectionLimits``.
    let connections: ConnectionGuard

    /// Creates a server for `responder`. `accessLogger` writes one line per request; default: a
    /// logger labelled `comet.server.access` at `logger`'s level.
    public init(
        responder: ServiceResponder, demo: DemoGallery? = nil, logger: Logger = Logger(label: "comet.server"),
        accessLogger: Logger? = nil
    ) {
        self.responder = responder
        self.demo = demo
        self.logger = logger
        self.accessLogger =
            accessLogger
            ?? {
                var access = Logger(label: "comet.server.access")
                access.logLevel = logger.logLevel
                return access
            }()
        connections = ConnectionGuard(limits: responder.configuration.connectionLimits) {
            [metrics = responder.metrics] open, closing in
            metrics.recordConnections(open: open, closedBecause: closing?.rawValue)
        }
    }

    /// Client connections open now.
    public var openConnectionCount: Int { connections.openCount }

    /// The Hummingbird application, listening where the service's configuration says.
    /// `onListening` gets the bound port (useful with port 0) once the server accepts
    /// connections.
    public func makeApplication(onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        -> Application<RouterResponder<ThumbnailRequestContext>>
    {
        let router = Router(context: ThumbnailRequestContext.self)
        // With no tracer and no access log there is nothing for it to record on any request.
        if !(responder.tracer is NoOpTracer) || accessLogger.logLevel <= .info {
            router.add(middleware: RequestTracingMiddleware(tracer: responder.tracer, logger: accessLogger))
        }
        router.add(middleware: RequestMetricsMiddleware(metrics: responder.metrics))
        router.add(middleware: JSONErrorMiddleware())
        router.get("/health") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}")))
        }
        router.get("/metrics") { [responder] _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: responder.metrics.exposition())))
        }
        if let demo {
            let configuration = responder.configuration
            router.get("/") { [self] _, _ in
                let port = self.boundPort.withLock { $0 } ?? configuration.port
                let page = demo.page(origin: "http://127.0.0.1:\(port)", signer: configuration.signer)
                return Response(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: page)))
            }
            router.get("/gallery/:name") { _, context in
                guard let name = context.parameters.get("name"), let asset = demo.asset(named: name) else {
                    return Self.response(for: .notFound("no such demo image"))
                }
                return Response(
                    status: .ok, headers: [.contentType: asset.contentType],
                    body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
            }
        }
        let configuration = responder.configuration
        let info = route { request throws(ServiceError) in
            try InfoRequest(
                path: String(request.uri.path.dropFirst(Self.infoPrefix.count)), configuration: configuration)
        }
        router.get("\(Self.infoPrefix)/**", use: info)
        router.head("\(Self.infoPrefix)/**", use: info)
        let thumbnail = route { request throws(ServiceError) in
            try ThumbnailRequest(path: request.uri.path, accept: request.headers[.accept], configuration: configuration)
        }
        // imgproxy's grammar has any number of segments; the path is read whole, as written.
        router.get("**", use: thumbnail)
        router.head("**", use: thumbnail)
        return Application(
            router: router,
            server: .guardedHTTP1(connections),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "comet-server"),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? configuration.port
                self.boundPort.withLock { $0 = port }
                await onListening(port)
            },
            logger: logger
        )
    }

    /// The handler of one kind of request, thumbnails' or `/info`'s: `read` checks the URL
    /// (throwing the error to answer with), then the responder answers, at once from a stored
    /// result in the request's own task, else through the result store. A client that
    /// disconnects cancels its work (the store keeps the making going while another request
    /// waits for the same result). Failures of sources and of the service are logged as
    /// warnings, client mistakes at `debug`. `HEAD` gets `GET`'s status and headers.
    private func route<Checked: ServiceRequest>(
        _ read: @escaping @Sendable (Request) throws(ServiceError) -> Checked
    ) -> @Sendable (Request, ThumbnailRequestContext) async -> Response {
        { [responder, logger, connections] request, context in
            let ifNoneMatch = request.headers[.ifNoneMatch]
            let response: Response
            do {
                let checked = try read(request)
                if let answer = responder.storedAnswer(for: checked, ifNoneMatch: ifNoneMatch) {
                    response = Self.response(for: answer)
                } else {
                    let answer = try await connections.cancellingOnDisconnect(of: context.channel) {
                        try await responder.answer(checked, ifNoneMatch: ifNoneMatch)
                    }
                    response = Self.response(for: answer)
                }
            } catch {
                let failure = ServiceError.from(error)
                if !context.channel.isActive {
                    logger.debug("\(request.uri.path): the client went away; its work was cancelled")
                } else {
                    logger.log(level: failure.status >= 500 ? .warning : .debug, "\(request.uri.path): \(failure)")
                }
                response = Self.response(for: failure)
            }
            return request.method == .head ? Self.headResponse(response) : response
        }
    }

    /// What an `/info` URL's path starts with, before its signature segment.
    static let infoPrefix = "/info"

    static func response(for answer: ServiceAnswer) -> Response {
        switch answer {
        case .result(let result, let caching):
            var fields = cachingFields(caching)
            fields.append(HTTPField(name: .contentType, value: result.contentType))
            fields.append(HTTPField(name: .eTag, value: result.etag))
            return Response(
                status: .ok, headers: HTTPFields(fields), body: .init(byteBuffer: ByteBuffer(bytes: result.bytes)))
        case .notModified(let etag, let caching):
            var fields = cachingFields(caching)
            fields.append(HTTPField(name: .eTag, value: etag))
            return Response(status: .notModified, headers: HTTPFields(fields))
        }
    }

    /// The answer to HEAD: GET's status and headers, with the length of the body it leaves out.
    static func headResponse(_ response: Response) -> Response {
        var headers = response.headers
        if let length = response.body.contentLength { headers[.contentLength] = String(length) }
        return Response(status: response.status, headers: headers)
    }

    static func response(for error: ServiceError) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(
            status: .init(code: error.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: error.json)))
    }

    /// The caching headers, as fields appended in order (setting them one by one in an
    /// `HTTPFields` looks each name up first).
    private static func cachingFields(_ caching: ServiceAnswer.CachingHeaders) -> [HTTPField] {
        var fields = [HTTPField(name: .cacheControl, value: caching.cacheControl)]
        fields.reserveCapacity(6)
        if caching.variesOnAccept { fields.append(HTTPField(name: .vary, value: "Accept")) }
        fields.append(HTTPField(name: .xCache, value: caching.isStored ? "HIT" : "MISS"))
        if let color = caching.color { fields.append(HTTPField(name: .cometColor, value: color.rawValue)) }
        if let disposition = caching.contentDisposition {
            fields.append(HTTPField(name: .contentDisposition, value: disposition))
        }
        return fields
    }
}

extension HTTPField.Name {
    /// `X-Cache`: `HIT` for a result that was stored, `MISS` for one made for the request.
    static let xCache = HTTPField.Name("X-Cache")!
    /// `Comet-Color`: `srgb` when the image holds sRGB numbers and no profile (the default),
    /// `source` when it keeps the source's numbers and embeds its profile (`scp:0`).
    static let cometColor = HTTPField.Name("Comet-Color")!
}
