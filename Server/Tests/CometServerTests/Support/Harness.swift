import CometServer
import Foundation

/// Runs `body` with a fresh origin and a server configured by `configure` (from
/// ``RunningServer/configuration()``), and stops both afterwards, also when `body` throws.
func withOriginAndServer(
    _ configure: (inout ServerConfiguration, OriginServer) -> Void = { _, _ in },
    _ body: (OriginServer, RunningServer) async throws -> Void
) async throws {
    let origin = try await OriginServer.start()
    var configuration = RunningServer.configuration()
    configure(&configuration, origin)
    let server: RunningServer
    do {
        server = try await RunningServer.start(configuration)
    } catch {
        await origin.stop()
        throw error
    }
    do {
        try await body(origin, server)
    } catch {
        await server.stop()
        await origin.stop()
        throw error
    }
    await server.stop()
    await origin.stop()
}
