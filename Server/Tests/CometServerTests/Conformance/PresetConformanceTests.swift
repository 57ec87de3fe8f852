import CometServer
import Foundation
import Testing

/// imgproxy's "Presets" guide through real servers: `preset`/`pr` in a URL, presets naming
/// presets, `default`, and how definitions are written (`NAME=opt:args/opt:args`). The servers'
/// presets are ``ConformanceServers/presetDefinitions`` and
/// ``ConformanceServers/defaultPresetDefinitions``; the source is a generated 200×100 PNG.
@Suite("Conformance: presets", .timeLimit(.minutes(10)))
struct PresetConformanceTests {
    private func source() async throws -> String {
        try await ConformanceOrigin.get().source("/gen/200x100.png")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathPreset.
    @Test func presetsApplyTheirOptionsInTheOrderNamed() async throws {
        let server = try await ConformanceServers.presets()
        let named = try await server.get(ImgproxyPath.plain("s:50:50/preset:fill:soft", try await source(), ext: "jpg"))
        let spelled = try await server.get(
            ImgproxyPath.plain("s:50:50/rt:fill/bl:0.2/q:50", try await source(), ext: "jpg"))
        #expect(named.status == 200, "\(named.text)")
        #expect(named.size == .init(width: 50, height: 50))
        #expect(named.body == spelled.body)
    }

    /// imgproxy: options/parser/processing_options.go's `pr`, the short name of `preset`.
    @Test func prIsPresetsShortName() async throws {
        let server = try await ConformanceServers.presets()
        let short = try await server.get(ImgproxyPath.plain("s:50:50/pr:fill", try await source(), ext: "png"))
        let long = try await server.get(ImgproxyPath.plain("s:50:50/preset:fill", try await source(), ext: "png"))
        #expect(short.status == 200 && short.size == .init(width: 50, height: 50), "\(short.text)")
        #expect(short.body == long.body)
    }

    /// imgproxy: the "Presets" guide (a preset may use another preset), as TestParsePathPreset.
    @Test func aPresetMayNameAnotherPreset() async throws {
        let answer = try await ConformanceServers.presets().get(ImgproxyPath.plain("pr:nested", try await source()))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 50, height: 50))
    }

    /// imgproxy: options/parser/apply.go's order (each option overrides what came before it), as
    /// TestParsePathPresetDefault.
    @Test func anOptionAfterAPresetOverridesIt() async throws {
        let answer = try await ConformanceServers.presets().get(
            ImgproxyPath.plain("pr:small/rs:fill:30:30", try await source(), ext: "png"))
        #expect(answer.status == 200 && answer.size == .init(width: 30, height: 30), "\(answer.text)")
    }

    /// imgproxy: options/parser/apply.go's order (a preset overrides the options before it).
    @Test func aPresetOverridesTheOptionsBeforeIt() async throws {
        let answer = try await ConformanceServers.presets().get(
            ImgproxyPath.plain("rs:fill:30:30/pr:small", try await source(), ext: "png"))
        #expect(answer.status == 200 && answer.size == .init(width: 50, height: 50), "\(answer.text)")
    }

    /// imgproxy: options/parser/apply.go's "Unknown preset" (imgproxy answers 404; comet-server a
    /// 400 naming it, as the guide says of option errors).
    @Test func anUnknownPresetIs400() async throws {
        let answer = try await ConformanceServers.presets().get(ImgproxyPath.plain("pr:nope", try await source()))
        #expect(answer.status == 400 && answer.text.contains("nope"), "\(answer.text)")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathPresetLoopDetection
    /// (presets naming each other are applied once each, not refused).
    @Test func presetsNamingEachOtherAreEachAppliedOnce() async throws {
        let answer = try await ConformanceServers.loopingPresets().get(
            ImgproxyPath.plain("pr:loopA", try await source()))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 50, height: 50))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathPresetDefault (the
    /// `default` preset applies to every URL).
    @Test func theDefaultPresetAppliesToAURLWithoutOptions() async throws {
        let answer = try await ConformanceServers.defaulted().get(ImgproxyPath.plain("", try await source()))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 100, height: 50))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathPresetDefault (the URL's
    /// own options come after `default`'s).
    @Test func aURLsOptionsOverrideTheDefaultPreset() async throws {
        let answer = try await ConformanceServers.defaulted().get(
            ImgproxyPath.plain("q:70/rs:fit:50:50/f:webp", try await source()))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "webp" && answer.size == .init(width: 50, height: 25))
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestPresetUsage (`default` may also
    /// be named).
    @Test func theDefaultPresetMayBeNamed() async throws {
        let server = try await ConformanceServers.defaulted()
        let named = try await server.get(ImgproxyPath.plain("preset:default/pr:pix", try await source()))
        let plain = try await server.get(ImgproxyPath.plain("", try await source()))
        #expect(named.status == 200 && named.size == .init(width: 100, height: 50), "\(named.text)")
        #expect(named.body != plain.body)
    }

    /// imgproxy: options/parser/presets_test.go, TestParsePreset and TestValidatePresets: a
    /// definition is `NAME=opt:args/opt:args`, here given to the command as `--preset`.
    @Test func theCommandTakesPresetsAsImgproxyWritesThem() async throws {
        let origin = try await ConformanceOrigin.get()
        let process = try await ServerProcess.start([
            "--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning",
            "--preset", "test=resize:fit:100:200/sharpen:2", "--preset", "default=f:png",
        ])
        defer { process.terminate() }
        let server = ConformanceServer(base: process.base, pairs: [], signatureSize: 32)
        let answer = try await server.get(ImgproxyPath.plain("pr:test", origin.source("/gen/200x100.jpg")))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 100, height: 50))
    }

    /// imgproxy: options/parser/presets_test.go, TestParsePresetInvalidString,
    /// TestParsePresetEmptyName, TestParsePresetEmptyValue, TestParsePresetInvalidValue and
    /// TestValidatePresetsInvalid: each definition is refused.
    @Test(arguments: [
        "resize:fit:100:200/sharpen:2", "=resize:fit:100:200/sharpen:2", "test=",
        "test=resize:fit:100:200/sharpen:2/blur", "test=resize:fit:-1:-2/sharpen:2",
    ])
    func aMalformedPresetDefinitionIsRefused(_ definition: String) {
        #expect(throws: ServiceError.self) {
            var definitions: [String: String] = [:]
            try ThumbnailPresets.addDefinition(definition, to: &definitions, origin: "--preset")
            _ = try ThumbnailPresets(definitions, maximumDimension: 4096)
        }
    }

    /// imgproxy: options/parser/presets_test.go, TestParsePresetEmptyString and
    /// TestParsePresetComment (a blank or `#` line defines nothing).
    @Test func blankAndCommentLinesDefineNoPreset() throws {
        var definitions: [String: String] = [:]
        try ThumbnailPresets.addDefinitions(
            file: "   \n#  test=resize:fit:100:200/sharpen:2\n", path: "presets.txt", to: &definitions)
        #expect(definitions.isEmpty)
    }
}
