import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird application serving `router` on 127.0.0.1 at a free port, running in a
/// service group of its own: what the tests' stand-in servers (origin, collector) are made of.
struct LoopbackApplication: Sendable {
    let group: ServiceGroup
    let task: Task<Void, any Error>
    /// `http://127.0.0.1:PORT`
    let base: String

    /// Starts serving and returns once the application accepts connections (at most 10 s).
    static func start(_ router: Router<BasicRequestContext>, label: String) async throws -> LoopbackApplication {
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: label)
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        let port = try await firstValue(of: portStream, within: .seconds(10))
        return LoopbackApplication(group: group, task: task, base: "http://127.0.0.1:\(port)")
    }

    /// Stops the application and waits for its group to end.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
