import InMemoryTracing
import Tracing

/// The in-memory tracer of swift-distributed-tracing, propagating W3C Trace Context
/// (`traceparent: 00-{trace id}-{parent span id}-01`) as an OpenTelemetry tracer does, so the
/// tests see the headers a production tracer reads and writes.
struct W3CTestTracer: Tracer {
    let recorder = InMemoryTracer()

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line
        )
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    )
    where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier) else { return }
        let parts = header.split(separator: "-")
        guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16 else { return }
        context.inMemorySpanContext = InMemorySpanContext(
            traceID: String(parts[1]), spanID: String(parts[2]), parentSpanID: nil)
    }

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    )
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(Self.sixteenHex(span.spanID))-01", forKey: "traceparent", into: &carrier)
    }

    /// The in-memory tracer numbers its spans; W3C wants sixteen hex digits.
    static func sixteenHex(_ id: String) -> String {
        String(repeating: "0", count: max(0, 16 - id.count)) + id
    }
}
