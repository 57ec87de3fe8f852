import Comet
import Foundation
import HTTPTypes
import Tracing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads trace context (W3C `traceparent` and `tracestate`, or whatever the bootstrapped tracer
/// propagates) from an incoming request's header fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return fields[name]
    }
}

/// Writes trace context into a source fetch's `URLRequest` headers, so the origin can continue
/// the trace.
struct URLRequestInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}

extension ImageRequest.UserInfoKey {
    /// The service context (trace) of the request that started a fetch, for the fetch's span.
    static let serviceContext: ImageRequest.UserInfoKey = "comet.server.serviceContext"
}
