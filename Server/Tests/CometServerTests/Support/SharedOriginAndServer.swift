import Comet
import CometServer
import Foundation

/// Origins and servers shared by every test of the suites that use them, each started on first
/// use and left running until the test process ends: a server per test would take the parallel
/// suite past libdispatch's thread limit. Tests that share one must not depend on the origin's
/// counts of shared paths (each uses paths of its own for that).
enum SharedOriginAndServer {
    /// The tests' default configuration (``RunningServer/configuration()``): no watermark.
    private static let standard = start { _ in }
    /// The default configuration with ``watermark``.
    private static let watermarked = start { $0.watermark = watermark }

    /// The default configuration, URLs allowed imgproxy's security options.
    private static let securityOptions = start { $0.allowsSecurityOptions = true }

    /// The default configuration with ``presets``, URLs naming presets only.
    private static let presetsOnly = start { $0.presets = presets }

    /// The presets-only server's presets: `default` (PNG), `thumb` (a 100×100 fill, west
    /// gravity) and `gray`.
    static let presets = try! ThumbnailPresets(
        ["default": "f:png", "thumb": "rs:fill:100:100/g:we", "gray": "grayscale:1"], onlyPresets: true,
        maximumDimension: 4096)

    /// The watermarked server's overlay: 20×10, its left half opaque blue, its right half red
    /// at alpha 128.
    static let watermark = WatermarkImage(
        image: Image(width: 20, height: 10, isOpaque: false) { pixels, bytesPerRow in
            for y in 0..<10 {
                for x in 0..<20 {
                    let offset = y * bytesPerRow + x * 4
                    let blue = x < 10
                    pixels[offset] = blue ? 0 : 255
                    pixels[offset + 1] = 0
                    pixels[offset + 2] = blue ? 255 : 0
                    pixels[offset + 3] = blue ? 255 : 128
                }
            }
        },
        id: "test-mark")

    /// The shared origin and the server of the default configuration, started on the first call.
    static func get() async throws -> (OriginServer, RunningServer) {
        try await standard.value
    }

    /// The shared origin and a server whose `--watermark` is ``watermark``.
    static func getWatermarked() async throws -> (OriginServer, RunningServer) {
        try await watermarked.value
    }

    /// The shared origin and a server whose URLs may give imgproxy's security options
    /// (`--allow-security-options`).
    static func getAllowingSecurityOptions() async throws -> (OriginServer, RunningServer) {
        try await securityOptions.value
    }

    /// The shared origin and a server with ``presets`` whose URLs may name presets only.
    static func getPresetsOnly() async throws -> (OriginServer, RunningServer) {
        try await presetsOnly.value
    }

    private static func start(
        _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void
    ) -> Task<(OriginServer, RunningServer), any Error> {
        Task {
            let origin = try await OriginServer.start()
            var configuration = RunningServer.configuration()
            // Every suite that shares the server sends its cases at once, and a slow machine
            // (or a sanitizer) keeps them queued longer: load shedding is not what these tests
            // check (LoadSheddingTests does, on a server of its own), so it must not answer 503.
            configuration.maximumQueuedWork = 4096
            configure(&configuration)
            return (origin, try await RunningServer.start(configuration))
        }
    }
}
