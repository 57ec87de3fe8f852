#if OTLPExport
    import OTel
    import ServiceLifecycle
    import Tracing

    /// The opt-in export of the server's spans to an OpenTelemetry collector over OTLP/HTTP
    /// (protobuf), with swift-otel: only the command links it, so the CometServer library and its
    /// adopters do not pay for it.
    enum TraceExport {
        /// A tracer that batches finished spans and sends them to `baseURL` + `/v1/traces`, and the
        /// service that runs the batching and the export (add it to the service group: it flushes
        /// on shutdown). Spans are named `comet-server`'s; W3C `traceparent` is read and written.
        /// The standard `OTEL_*` variables tune it (for example `OTEL_BSP_SCHEDULE_DELAY`, the
        /// milliseconds between exports, default 5000; `OTEL_TRACES_SAMPLER`).
        static func make(baseURL: String) throws -> (tracer: any Tracer, service: any Service) {
            var configuration = OTel.Configuration.default
            configuration.serviceName = "comet-server"
            configuration.logs.enabled = false
            configuration.metrics.enabled = false
            configuration.traces.enabled = true
            configuration.traces.exporter = .otlp
            configuration.traces.otlpExporter.protocol = .httpProtobuf
            configuration.traces.otlpExporter.endpoint =
                baseURL.hasSuffix("/") ? baseURL + "v1/traces" : baseURL + "/v1/traces"
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            return (backend.factory, backend.service)
        }
    }
#endif
