import Comet
import Foundation
import Tracing

extension ResultMaker {
    /// Makes the answer of an `/info` request within the processing time limit: fetches the
    /// source (an `info` span, the pipeline's `fetch` its child) and describes it as JSON
    /// (``SourceInfo``: one small decode, the BlurHash when asked for).
    public func makeInfo(_ request: InfoRequest) async throws -> StoredResult {
        try await withinDeadline(doing: "describing the image") { [self] _ in
            let source = request.path.source
            let data = try await tracer.withAnySpan("info") { span in
                span.attributes["server.address"] = source.host
                var fetch = ImageRequest(url: source)
                if traces { fetch.userInfo[.serviceContext] = span.context }
                return try await self.data(for: fetch)
            }
            let limits = pipeline.configuration.decodingOptions.limits
            let options = request.options
            let info = try await Self.offCooperativePool {
                try SourceInfo.make(from: data, options: options, limits: limits)
            }
            return try finish(
                info.json, contentType: "application/json", key: request.key, format: nil, source: source,
                sourceBytes: data)
        }
    }
}
