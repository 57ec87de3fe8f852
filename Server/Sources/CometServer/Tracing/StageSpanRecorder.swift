import Comet
import Foundation
import Tracing

/// Turns the pipeline's stage reports (``ImagePipeline/Hooks/stageFinished``) into `decode` and
/// `process` spans, children of the request that started the work, placed at the time the
/// stage ran: with the encoded size read (decode), the processor (process), the size made, and
/// the error of a failed stage.
///
/// Work shared by coalesced requests appears once, in the trace of the request that started
/// it. Requests without a trace (no ``ImageRequest/UserInfoKey/serviceContext``) record nothing.
struct StageSpanRecorder: Sendable {
    let tracer: any Tracer

    func record(_ report: ImagePipeline.StageReport, for request: ImageRequest) {
        guard let context = request.userInfo[.serviceContext] as? ServiceContext else { return }
        let start = Self.timestamp(report.start)
        let span: any Span
        switch report.stage {
        case .decode:
            span = tracer.startAnySpan("decode", at: start, context: context, ofKind: .internal)
            if let bytes = report.inputBytes { span.attributes["comet.source.size"] = bytes }
        case .process(let processor):
            span = tracer.startAnySpan("process", at: start, context: context, ofKind: .internal)
            span.attributes["comet.processor"] = processor
        }
        if let size = report.outputSize {
            span.attributes["comet.image.width"] = size.width
            span.attributes["comet.image.height"] = size.height
        }
        if let error = report.error { span.recordError(error) }
        let nanoseconds =
            report.duration.components.seconds * 1_000_000_000 + report.duration.components.attoseconds / 1_000_000_000
        span.end(
            at: DefaultTracerClock.Timestamp(
                nanosecondsSinceEpoch: start.nanosecondsSinceEpoch + UInt64(max(0, nanoseconds))))
    }

    private static func timestamp(_ date: Date) -> DefaultTracerClock.Timestamp {
        DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: UInt64(max(0, date.timeIntervalSince1970 * 1_000_000_000)))
    }
}
