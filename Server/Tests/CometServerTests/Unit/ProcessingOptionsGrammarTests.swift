import Comet
@testable import CometServer
import Foundation
import Testing

@Suite("The {options} grammar of gravity, geometry and effects")
struct ProcessingOptionsGrammarTests {
    private func parse(_ segment: String) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segment, maximumDimension: 4096)
    }

    @Test func gravityReadsCompassPointsWithOffsetsFocusPointsAndSmart() throws {
        #expect(try parse("g:soea:10:0.25").gravity == .compass(.southEast, offsetX: 10, offsetY: 0.25))
        #expect(try parse("gravity:we").gravity == .compass(.west))
        #expect(try parse("g:fp:0.25:1").gravity == .focusPoint(x: 0.25, y: 1))
        #expect(try parse("g:sm").gravity == .smart)
    }

    @Test func aCentredGravityWithoutOffsetsIsNoOption() throws {
        #expect(try parse("g:ce").canonical == "")
        #expect(try parse("g:ce:0:0").canonical == "")
        #expect(try parse("g:ce:5:0").canonical == "g:ce:5:0")
    }

    @Test func rotationIsSpelledAsAClockwiseTurnFrom0To270() throws {
        #expect(try parse("rot:-90").canonical == "rot:270")
        #expect(try parse("rotate:450").canonical == "rot:90")
        #expect(try parse("rot:360").canonical == "")
    }

    @Test(arguments: [
        ("pd:10", "pd:10:10:10:10"), ("pd:10:20", "pd:10:20:10:20"), ("pd:1:2:3", "pd:1:2:3:2"),
        ("padding:1:2:3:4", "pd:1:2:3:4"),
    ])
    func paddingSidesFollowCSS(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test(arguments: ["bl:0", "sh:0", "pix:1", "pix:0", "brightness:0", "contrast:0", "dpr:1", "flip:0:0"])
    func aValueThatChangesNothingIsNoOption(_ segment: String) throws {
        #expect(try parse(segment).canonical == "")
    }

    @Test(arguments: [
        ("bl:2.50", "bl:2.5"), ("dpr:2.0", "dpr:2"), ("sh:0.12345", "sh:0.1235"), ("brightness:-040", "brightness:-40"),
        ("flip:true:f", "fl:1:0"),
    ])
    func numbersAndFlagsHaveOneSpelling(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test(arguments: [
        ("g:up", "g"), ("g:fp:1.5:0", "g:"), ("g:fp:0.5", "g:"), ("g:sm:1:1", "g:"),
        ("g:no:1e3:0", "g"), ("g:no:5000:0", "g"), ("rot:45", "rot"), ("rot:x", "rot"), ("flip:2", "fl"),
        ("flip:2:0", "fl"), ("dpr:0", "dpr"), ("dpr:9", "dpr"), ("dpr:nan", "dpr"), ("pd:-1", "pd"),
        ("pd:5000", "pd"), ("pd:1:2:3:4:5", "pd"), ("bl:-1", "bl"), ("bl:257", "bl"), ("bl:inf", "bl"),
        ("sh:17", "sh"), ("sh:-0.5", "sh"), ("pix:1025", "pix"), ("pix:-2", "pix"), ("grayscale:x", "grayscale"),
        ("brightness:101", "brightness"), ("contrast:-100.5", "contrast"),
    ])
    func aBadValueIsRefusedNamingItsOption(_ segment: String, _ name: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.status == 400)
        #expect(error?.message.hasPrefix(name) == true, "\(segment): \(error?.message ?? "")")
    }

    @Test(arguments: [
        ("t:10", "t:10"), ("trim:5:FFFFFF", "t:5:ffffff:0:0"), ("t:0::1", "t:0::1:0"), ("t:0::0:0", "t:0"),
    ])
    func trimIsSpelledWithWhatItSets(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test func enlargeIsSpelledAsTheResizesFourthValue() throws {
        #expect(try parse("enlarge:1/rs:fit:100:0").canonical == "rs:fit:100:0:1")
        #expect(try parse("el:0/rs:fit:100:0").canonical == "rs:fit:100:0")
        #expect(try parse("el:1").canonical == "el:1")
    }

    @Test(arguments: ["t:256", "t:-1", "t:10:ffff", "t:10::2", "t:1:2:3:4:5", "el:2"])
    func aBadTrimOrEnlargeIsRefused(_ segment: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.message.hasPrefix(String(segment.prefix { $0 != ":" })) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        ("c:0.5:0", "c:0.5:0"), ("crop:100:200:nowe:0.1:5", "c:100:200:nowe:0.1:5"), ("c:10:10:ce", "c:10:10"),
    ])
    func cropAreaIsSpelledWithItsGravity(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test(arguments: ["c:-1:10", "c:10:10:up", "c:10:10:sm:1", "c:x:1", "c:200000:1"])
    func aBadCropAreaIsRefusedNamingC(_ segment: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.message.hasPrefix("c") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        ("ex:1", "ex:1"), ("ex:1:ce", "ex:1"), ("ex:0:so", ""), ("extend:t:soea:5:5", "ex:1:soea:5:5"),
        ("extend_aspect_ratio:1:fp:0:0.5", "exar:1:fp:0:0.5"),
    ])
    func anExtensionIsSpelledWithItsGravity(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test(arguments: ["ex:2", "ex:1:sm", "exar:1:up", "ex:1:no:1:1:1"])
    func aBadExtensionIsRefusedNamingIt(_ segment: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.message.hasPrefix(String(segment.prefix { $0 != ":" })) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [("z:2", "z:2"), ("zoom:1.5:1.50", "z:1.5"), ("z:1:2", "z:1:2"), ("z:1", "")])
    func zoomIsSpelledWithOneFactorWhenBothAreEqual(_ segment: String, _ canonical: String) throws {
        #expect(try parse(segment).canonical == canonical)
    }

    @Test(arguments: ["z:0", "z:9", "z:1:2:3", "z:x", "rs:fit:3000:0/z:2"])
    func aBadZoomIsRefused(_ segment: String) {
        #expect(throws: ServiceError.self) { try parse(segment) }
    }

    @Test func theDevicePixelRatioMayNotTakeTheResultPastTheLargestSide() throws {
        #expect(throws: ServiceError.self) { try parse("rs:fit:3000:0/dpr:2") }
        #expect(throws: ServiceError.self) { try parse("rs:fit:2000:0/pd:0:50/dpr:2") }
        #expect(try parse("rs:fit:2048:0/dpr:2").pixelRatio == 2)
    }

    @Test func theDevicePixelRatioMultipliesTheResizeThePaddingAndPixelOffsets() throws {
        let plan = ThumbnailPlan(try parse("g:we:10:0.5/dpr:2/rs:fill:100:50/pd:1:2:3:4"))
        // The ratio honoured depends on the source: one step decides it and lays the padding.
        #expect(plan.processors.count == 1)
        let resize = try #require(plan.processors.first as? SourceAwareResize)
        #expect(resize.geometry.pixelRatio == 2 && resize.geometry.width == 100 && resize.geometry.height == 50)
        #expect(resize.gravity == .compass(.west, offsetX: 10, offsetY: 0.5))
        let image = try resize.process(Image(width: 640, height: 480, color: RGBA8(red: 9, green: 9, blue: 9)))
        // 200 × 100, with 2, 4, 6 and 8 pixels of padding.
        #expect(image.width == 212 && image.height == 108)
        let small = try resize.process(Image(width: 100, height: 50, color: RGBA8(red: 9, green: 9, blue: 9)))
        // A source that the ratio would enlarge: the ratio, the padding's too, is 1.
        #expect(small.width == 106 && small.height == 54)
    }

    @Test func effectsFollowAFitThatIsStillReducedWhileDecoding() throws {
        let request = ThumbnailPlan(try parse("rs:fit:256:256/sh:0.5/grayscale:1"))
            .imageRequest(source: URL(string: "https://images.example.com/a.jpg")!)
        #expect(request.thumbnail != nil)
        #expect(
            request.processors.map(\.identifier) == [
                ImageProcessors.Sharpen(radius: 0.5).identifier, ImageProcessors.Grayscale().identifier,
            ])
    }
}
