import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 channel with a ``ConnectionGuardHandler`` in front of each connection's
/// pipeline (header-read timeout, connection limit) and Hummingbird's own idle timeout.
///
/// Thread-safe (a value).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    let connections: ConnectionGuard

    init(responder: @escaping HTTPChannelHandler.Responder, connections: ConnectionGuard) {
        http = HTTP1Channel(
            responder: responder, configuration: .init(idleTimeout: connections.limits.idleTimeout.timeAmount))
        self.connections = connections
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(connections.makeHandler())
        }.flatMap { [http] in
            http.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 behind a ``ConnectionGuard``.
    static func guardedHTTP1(_ connections: ConnectionGuard) -> HTTPServerBuilder {
        .init { responder in GuardedHTTP1Channel(responder: responder, connections: connections) }
    }
}
