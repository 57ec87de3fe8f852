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

/// Magic-byte checks of encoded images.
enum Magic {
    static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }
    static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) }
    static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count > 12 && bytes[0..<4].elementsEqual(Array("RIFF".utf8)) && bytes[8..<12].elementsEqual(Array("WEBP".utf8))
    }
    static func isAVIF(_ bytes: [UInt8]) -> Bool {
        bytes.count > 12 && bytes[4..<8].elementsEqual(Array("ftyp".utf8))
            && (bytes[8..<12].elementsEqual(Array("avif".utf8)) || bytes[8..<12].elementsEqual(Array("avis".utf8)))
    }
}
