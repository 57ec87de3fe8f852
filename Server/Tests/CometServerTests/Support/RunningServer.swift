import CometServer
import Foundation
import Logging
import ServiceLifecycle

/// A `ThumbnailServer` running in this process on a free loopback port, for one test.
final class RunningServer: Sendable {
    let responder: ServiceResponder
    let server: ThumbnailServer
    let base: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(
        responder: ServiceResponder, server: ThumbnailServer, base: String, group: ServiceGroup,
        task: Task<Void, any Error>
    ) {
        self.responder = responder
        self.server = server
        self.base = base
        self.group = group
        self.task = task
    }

    /// The signing key and salt of the tests.
    static let signer = try! URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f")

    /// A configuration for tests: port 0, signed, the loopback origin allowed by name.
    static func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.signer = signer
        configuration.sourcePolicy = SourcePolicy(privateHosts: ["127.0.0.1"])
        return configuration
    }

    /// Starts a server and returns once it accepts connections.
    static func start(
        _ configuration: ServerConfiguration = configuration(),
        store: any SharedResultStoring = LocalResultStore(),
        demo: DemoGallery? = nil, accessLogger: Logger? = nil
    ) async throws -> RunningServer {
        var logger = Logger(label: "test.server")
        logger.logLevel = .warning
        let responder = ServiceResponder(configuration: configuration, store: store, logger: logger)
        let server = ThumbnailServer(responder: responder, demo: demo, logger: logger, accessLogger: accessLogger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = server.makeApplication { port in
            continuation.yield(port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task { try await group.run() }
        let port = try await firstValue(of: ports, within: .seconds(10))
        return RunningServer(
            responder: responder, server: server, base: "http://127.0.0.1:\(port)", group: group, task: task)
    }

    /// The responder URL for `options` and `source`, signed with the tests' key (or with
    /// `signature` in its place).
    func url(_ options: String, _ source: URL, fileExtension: String? = nil, signer: URLSigner? = RunningServer.signer)
        -> URL
    {
        URL(
            string: base
                + ThumbnailPath.make(options: options, source: source, fileExtension: fileExtension, signer: signer))!
    }

    /// Stops the server gracefully.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
