@testable import CometServer
import Foundation
import Testing

@Suite("Presets: named options, a default, and presets-only servers")
struct PresetTests {
    private let presets = try! ThumbnailPresets(
        ["thumb": "rs:fill:100:100/q:80", "gray": "grayscale:1", "default": "f:webp"], maximumDimension: 4096)

    private func parse(_ segment: String, _ presets: ThumbnailPresets) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segment, maximumDimension: 4096, presets: presets)
    }

    @Test func aURLNamingPresetsIsParsedAsTheirOptions() throws {
        #expect(try parse("pr:thumb:gray", presets) == parse("rs:fill:100:100/q:80/grayscale:1/f:webp", .none))
        #expect(try parse("preset:thumb", presets).canonical == "rs:fill:100:100/q:80/f:webp")
    }

    @Test func theDefaultPresetAppliesToEveryURL() throws {
        #expect(try parse("-", presets).format == .webp)
        #expect(try parse("rs:fit:10:10", presets).format == .webp)
    }

    @Test func anOptionAfterAPresetOverridesIt() throws {
        #expect(try parse("pr:thumb/q:50", presets).quality == 50)
        #expect(try parse("f:png", presets).format == .png)
    }

    @Test func anUnknownPresetIsRefusedNamingPr() {
        let error = #expect(throws: ServiceError.self) { try parse("pr:nope", presets) }
        #expect(error?.status == 400 && error?.message.hasPrefix("pr: unknown preset \"nope\"") == true)
    }

    @Test func prMayBeGivenAgainAndALaterOptionOverrides() throws {
        #expect(try parse("pr:thumb/q:50/pr:thumb", presets).quality == 80)
    }

    @Test func aPresetMayNameAnotherPreset() throws {
        let nested = try ThumbnailPresets(["small": "pr:base/rs:fit:10:10", "base": "q:60"], maximumDimension: 4096)
        #expect(try parse("pr:small", nested).canonical == "rs:fit:10:10/q:60")
    }

    @Test func presetsThatNameEachOtherAreEachExpandedOnce() throws {
        let looping = try ThumbnailPresets(["a": "q:60/pr:b", "b": "rs:fit:10:10/pr:a"], maximumDimension: 4096)
        #expect(try parse("pr:a", looping).canonical == "rs:fit:10:10/q:60")
        #expect(try parse("pr:b", looping).canonical == "rs:fit:10:10/q:60")
    }

    @Test func aPresetNamingItselfSkipsThatName() throws {
        let selfNaming = try ThumbnailPresets(["a": "q:60/pr:a"], maximumDimension: 4096)
        #expect(try parse("pr:a", selfNaming).canonical == "q:60")
    }

    @Test func anEmptyPresetIsRefusedWhenTheServerStarts() {
        let error = #expect(throws: ServiceError.self) { try ThumbnailPresets(["thumb": ""], maximumDimension: 4096) }
        #expect(error?.message.hasPrefix("preset \"thumb\": no options") == true)
    }

    @Test func aPresetsOnlyServerRefusesAnyOtherOption() throws {
        let only = try ThumbnailPresets(["thumb": "rs:fill:100:100"], onlyPresets: true, maximumDimension: 4096)
        #expect(try parse("pr:thumb", only).resize == .init(mode: .fill, width: 100, height: 100))
        let error = #expect(throws: ServiceError.self) { try parse("pr:thumb/rs:fit:10:10", only) }
        #expect(error?.message.hasPrefix("rs: this server takes presets only") == true)
    }

    @Test(arguments: [
        ["bad name": "q:80"], ["thumb": "rs:grow:1:1"], ["thumb": "pr:other"],
        ["thumb": "rs:fit:9000:0"],
    ])
    func aBadPresetIsRefusedWhenTheServerStarts(_ definitions: [String: String]) {
        let error = #expect(throws: ServiceError.self) { try ThumbnailPresets(definitions, maximumDimension: 4096) }
        #expect(error?.message.hasPrefix("preset \"") == true)
    }

    @Test func aPresetsFileHasOneDefinitionALineAndComments() throws {
        var definitions: [String: String] = [:]
        try ThumbnailPresets.addDefinition("gray=grayscale:1", to: &definitions, origin: "--preset")
        let file = "# thumbnails\n\n  thumb=rs:fill:100:100/q:80  \r\n   # indented comment\nwide=s:800:0\n"
        try ThumbnailPresets.addDefinitions(file: file, path: "presets.txt", to: &definitions)
        #expect(definitions == ["gray": "grayscale:1", "thumb": "rs:fill:100:100/q:80", "wide": "s:800:0"])
        let presets = try ThumbnailPresets(definitions, maximumDimension: 4096)
        #expect(try parse("pr:wide", presets).canonical == "rs:fit:800:0")
    }

    @Test(arguments: [
        ("a=q:80\na=q:70\n", "presets.txt:2: preset a is defined twice"),
        ("a=q:80\n=q:70\n", "presets.txt:2: a preset is NAME=options"), ("q:80\n", "presets.txt:1: a preset is NAME"),
        ("gray=q:80\n", "presets.txt:1: preset gray is defined twice"),
    ])
    func aBadPresetsFileIsRefusedNamingTheLine(_ file: String, _ message: String) throws {
        var definitions = ["gray": "grayscale:1"]
        let error = #expect(throws: ServiceError.self) {
            try ThumbnailPresets.addDefinitions(file: file, path: "presets.txt", to: &definitions)
        }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }
}
