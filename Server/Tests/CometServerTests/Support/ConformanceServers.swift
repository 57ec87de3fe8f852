import Comet
import CometServer
import Foundation

/// The conformance suite's servers, each started on first use and shared by every test that asks
/// for it (as ``SharedOriginAndServer``'s are), all fetching from ``ConformanceOrigin``:
/// - ``signed()``: signing on, with ``pair`` (imgproxy's usual deployment)
/// - ``unsigned()``: signing off (imgproxy without `IMGPROXY_KEY`)
/// - ``truncated()``: signatures of 8 bytes (`IMGPROXY_SIGNATURE_SIZE=8`)
/// - ``rotating()``: ``pair`` and ``secondPair`` both accepted
/// - ``presets()``: ``presetDefinitions``, no `default`
/// - ``loopingPresets()``: ``loopingPresetDefinitions``, two presets naming each other
/// - ``defaulted()``: ``defaultPresetDefinitions``, with a `default`
/// - ``onlyPresets()``: ``onlyPresetDefinitions`` under only-presets mode
/// - ``watermarked()``: ``watermark`` as `--watermark`
/// - ``publicSourcesOnly()``: the default source policy (loopback sources refused)
/// - ``tinySources()``: sources of at most 64 bytes (`--max-source-bytes 64`)
enum ConformanceServers {
    /// The suite's key and salt (hex `636f6e666f726d` is "conform", `73616c74` "salt").
    static let pair = ConformanceServer.KeyPair(
        key: IndependentHMAC.bytes(hex: "636f6e666f726d"), salt: IndependentHMAC.bytes(hex: "73616c74"))
    /// A second key and salt, accepted beside ``pair`` by ``rotating()``.
    static let secondPair = ConformanceServer.KeyPair(
        key: IndependentHMAC.bytes(hex: "6e65772d6b6579"), salt: IndependentHMAC.bytes(hex: "6e65772d73616c74"))

    /// The presets of ``presets()``: `fill` (a fill type), `soft` (a blur and a quality), `small`
    /// (a 50×50 fill) and `nested` (`small` then PNG).
    static let presetDefinitions = [
        "fill": "rt:fill", "soft": "bl:0.2/q:50", "small": "rs:fill:50:50", "nested": "pr:small/f:png",
    ]

    /// The presets of ``loopingPresets()``: `loopA` (a 50×50 fill, then `loopB`) and `loopB`
    /// (PNG, then `loopA`), which name each other as imgproxy's loop-detection case does.
    static let loopingPresetDefinitions = ["loopA": "rs:fill:50:50/pr:loopB", "loopB": "f:png/pr:loopA"]

    /// The presets of ``defaulted()``: `default` (a 100×100 fit as PNG) and `pix` (pixelation).
    static let defaultPresetDefinitions = ["default": "rs:fit:100:100/f:png", "pix": "pix:10"]

    /// The presets of ``onlyPresets()``: `blurred`, `low` (quality 50) and `thumb` (a 60×60 fill).
    static let onlyPresetDefinitions = ["blurred": "bl:0.2", "low": "q:50", "thumb": "rs:fill:60:60"]

    /// The watermark of ``watermarked()``: 40×20 opaque blue.
    static let watermark = WatermarkImage(
        image: Image(width: 40, height: 20, color: RGBA8(red: 0, green: 0, blue: 255)), id: "conformance-mark")

    static func signed() async throws -> ConformanceServer { try await signedServer.value }
    static func unsigned() async throws -> ConformanceServer { try await unsignedServer.value }
    static func truncated() async throws -> ConformanceServer { try await truncatedServer.value }
    static func rotating() async throws -> ConformanceServer { try await rotatingServer.value }
    static func presets() async throws -> ConformanceServer { try await presetsServer.value }
    static func loopingPresets() async throws -> ConformanceServer { try await loopingPresetsServer.value }
    static func defaulted() async throws -> ConformanceServer { try await defaultedServer.value }
    static func onlyPresets() async throws -> ConformanceServer { try await onlyPresetsServer.value }
    static func watermarked() async throws -> ConformanceServer { try await watermarkedServer.value }
    static func publicSourcesOnly() async throws -> ConformanceServer { try await publicSourcesOnlyServer.value }
    static func tinySources() async throws -> ConformanceServer { try await tinySourcesServer.value }

    private static let signedServer = start(pairs: [pair]) { _ in }
    private static let unsignedServer = start(pairs: []) { _ in }
    private static let truncatedServer = start(pairs: [pair], signatureSize: 8) { _ in }
    private static let rotatingServer = start(pairs: [pair, secondPair]) { _ in }
    private static let presetsServer = start(pairs: [pair]) { configuration in
        configuration.presets = try ThumbnailPresets(presetDefinitions, maximumDimension: 4096)
    }
    private static let loopingPresetsServer = start(pairs: [pair]) { configuration in
        configuration.presets = try ThumbnailPresets(loopingPresetDefinitions, maximumDimension: 4096)
    }
    private static let defaultedServer = start(pairs: [pair]) { configuration in
        configuration.presets = try ThumbnailPresets(defaultPresetDefinitions, maximumDimension: 4096)
    }
    private static let onlyPresetsServer = start(pairs: [pair]) { configuration in
        configuration.presets = try ThumbnailPresets(onlyPresetDefinitions, onlyPresets: true, maximumDimension: 4096)
    }
    private static let watermarkedServer = start(pairs: [pair]) { $0.watermark = watermark }
    private static let publicSourcesOnlyServer = start(pairs: [pair]) { $0.sourcePolicy = SourcePolicy() }
    private static let tinySourcesServer = start(pairs: [pair]) { $0.fetchLimits.maximumBytes = 64 }

    private static func start(
        pairs: [ConformanceServer.KeyPair], signatureSize: Int = 32,
        _ configure: @escaping @Sendable (inout ServerConfiguration) throws -> Void
    ) -> Task<ConformanceServer, any Error> {
        Task {
            var configuration = RunningServer.configuration()
            configuration.signer =
                pairs.isEmpty
                ? nil : try URLSigner(pairs: pairs.map { (key: $0.key, salt: $0.salt) }, signatureSize: signatureSize)
            // Every suite sends its cases at once: load shedding is not what these tests check.
            configuration.maximumQueuedWork = 4096
            try configure(&configuration)
            let server = try await RunningServer.start(configuration)
            return ConformanceServer(base: server.base, pairs: pairs, signatureSize: signatureSize)
        }
    }
}
