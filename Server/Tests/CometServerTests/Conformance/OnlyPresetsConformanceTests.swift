import Foundation
import Testing

/// imgproxy's only-presets mode (`IMGPROXY_ONLY_PRESETS`): the options segment names presets,
/// `/{signature}/{name}:{name}/{source}`, and nothing else. The server's presets are
/// ``ConformanceServers/onlyPresetDefinitions``; the source is a generated 200×100 PNG.
@Suite("Conformance: only presets", .timeLimit(.minutes(10)))
struct OnlyPresetsConformanceTests {
    private func source() async throws -> String {
        try await ConformanceOrigin.get().source("/gen/200x100.png")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathOnlyPresets.
    @Test func thePresetsSegmentNamesPresetsBeforeAPlainSource() async throws {
        let answer = try await ConformanceServers.onlyPresets().get(
            "/blurred:low/plain/" + (try await source()) + "@jpg")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "jpeg" && answer.size == .init(width: 200, height: 100))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParseBase64URLOnlyPresets.
    @Test func thePresetsSegmentNamesPresetsBeforeABase64Source() async throws {
        let encoded = IndependentHMAC.base64URL(Array((try await source() + "?param=value").utf8))
        let answer = try await ConformanceServers.onlyPresets().get("/blurred:low/" + encoded + ".png")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 200, height: 100))
    }

    /// imgproxy: the "Presets" guide's only-presets mode (one name alone).
    @Test func onePresetNameAloneIsThePresetsSegment() async throws {
        let answer = try await ConformanceServers.onlyPresets().get("/thumb/plain/" + (try await source()))
        #expect(answer.status == 200 && answer.size == .init(width: 60, height: 60), "\(answer.text)")
    }

    /// imgproxy: options/parser/processing_options.go's parsePathPresets (the segment is split
    /// into preset names, so an option's name is an unknown preset; imgproxy answers 404,
    /// comet-server a 400).
    @Test func anOptionInOnlyPresetsModeIs400() async throws {
        let answer = try await ConformanceServers.onlyPresets().get("/rs:fit:10:10/plain/" + (try await source()))
        #expect(answer.status == 400, "\(answer.text)")
    }

    /// imgproxy: options/parser/apply.go's "Unknown preset" under only-presets (404 there; 400 here).
    @Test func anUnknownPresetInOnlyPresetsModeIs400() async throws {
        let answer = try await ConformanceServers.onlyPresets().get("/thumb:nope/plain/" + (try await source()))
        #expect(answer.status == 400 && answer.text.contains("nope"), "\(answer.text)")
    }
}
