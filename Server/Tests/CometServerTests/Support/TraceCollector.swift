import Foundation
import Hummingbird
import Locking
import NIOCore

/// A stand-in OpenTelemetry collector on 127.0.0.1 (Hummingbird, a free port): keeps the body
/// of every OTLP/HTTP export (`POST /v1/traces`) and answers 200 with an empty export response.
final class TraceCollector: Sendable {
    private let exports: Locked<[[UInt8]]>
    private let application: LoopbackApplication
    /// `http://127.0.0.1:PORT`
    var base: String { application.base }

    /// The bodies received so far, in order.
    var bodies: [[UInt8]] { exports.withLock { $0 } }

    private init(exports: Locked<[[UInt8]]>, application: LoopbackApplication) {
        self.exports = exports
        self.application = application
    }

    /// Starts a collector and returns once it accepts connections.
    static func start() async throws -> TraceCollector {
        let exports = Locked<[[UInt8]]>([])
        let router = Router()
        router.post("/v1/traces") { request, _ in
            let body = try await request.body.collect(upTo: 16 << 20)
            exports.withLock { $0.append(Array(buffer: body)) }
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
        }
        return TraceCollector(
            exports: exports, application: try await LoopbackApplication.start(router, label: "test.collector"))
    }

    /// Stops the collector.
    func stop() async {
        await application.stop()
    }
}
