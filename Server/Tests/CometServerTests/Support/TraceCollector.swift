import Foundation
import Hummingbird
import Locking
import Logging
import NIOCore
import ServiceLifecycle

/// A stand-in OpenTelemetry collector on 127.0.0.1 (Hummingbird, a free port): keeps the body
/// of every OTLP/HTTP export (`POST /v1/traces`) and answers 200 with an empty export response.
final class TraceCollector: Sendable {
    private let exports: Locked<[[UInt8]]>
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    /// `http://127.0.0.1:PORT`
    let base: String

    /// The bodies received so far, in order.
    var bodies: [[UInt8]] { exports.withLock { $0 } }

    private init(exports: Locked<[[UInt8]]>, group: ServiceGroup, task: Task<Void, any Error>, base: String) {
        self.exports = exports
        self.group = group
        self.task = task
        self.base = base
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
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.collector")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in
                                  portContinuation.yield(channel.localAddress?.port ?? 0)
                                  portContinuation.finish()
                              }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        let port = try await firstValue(of: portStream, within: .seconds(10))
        return TraceCollector(exports: exports, group: group, task: task, base: "http://127.0.0.1:\(port)")
    }

    /// Stops the collector.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
