import Foundation
import Testing

/// `extend`/`ex`, `extend_aspect_ratio`/`exar` and `padding`/`pd` as imgproxy's extend and
/// padding tests use them, on a 200×100 PNG (the size of imgproxy's `geometry.png`).
@Suite("Conformance: extend and padding", .timeLimit(.minutes(10)))
struct ExtendAndPaddingConformanceTests {
    private func answer(_ options: String) async throws -> ConformanceAnswer {
        let origin = try await ConformanceOrigin.get()
        return try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source("/gen/200x100.png"), ext: "png"))
    }

    private func size(_ options: String) async throws -> ConformanceAnswer.Size? {
        let answer = try await answer(options)
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer.size
    }

    /// imgproxy: processing/extend_test.go, TestExtend (every gravity).
    @Test(arguments: ["ce", "no", "so", "ea", "we", "noea", "soea", "sowe", "nowe"])
    func extendMakesTheBoxsSizeAtEveryGravity(_ gravity: String) async throws {
        #expect(try await size("s:500:500/ex:1:\(gravity)") == .init(width: 500, height: 500))
    }

    /// imgproxy: processing/extend_test.go, TestExtend's offsets and dpr.
    @Test(arguments: [
        ("s:500:500/ex:1:no:0:5", 500, 500), ("s:500:500/ex:1:no:0:5/dpr:0.5", 250, 250),
        ("s:500:500/ex:1:no:0:5/dpr:2", 500, 500), ("s:500:500/ex:1:ea:5:0", 500, 500),
        ("s:500:500/ex:1:ea:5:0/dpr:0.5", 250, 250), ("s:500:500/ex:1:ea:5:0/dpr:2", 500, 500),
        ("s:500:500/ex:1:no:0:0.1", 500, 500), ("s:500:500/ex:1:no:0:0.1/dpr:0.5", 250, 250),
        ("s:500:500/extend:1:so:10:20", 500, 500),
    ])
    func extendOffsetsAndDpr(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options) == .init(width: width, height: height))
    }

    /// imgproxy: processing/extend_test.go, TestExtend's offsets written with parts left empty or
    /// out (`ex:1:no::5`, `ex:1:ea:5`), as options/parser/apply.go reads them.
    @Test(arguments: ["s:500:500/ex:1:no::5", "s:500:500/ex:1:ea:5"])
    func extendOffsetsMayBeLeftEmptyOrOut(_ options: String) async throws {
        #expect(try await size(options) == .init(width: 500, height: 500))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathExtendSmartGravity and
    /// TestParsePathExtendReplicateGravity (imgproxy answers 404; comet-server a 400).
    @Test(arguments: ["s:500:500/ex:1:sm", "s:500:500/ex:1:re"])
    func smartAndReplicateAreNoExtendGravities(_ options: String) async throws {
        #expect(try await answer(options).status == 400)
    }

    /// imgproxy: processing/extend_test.go, TestExtendAspectRatio (every gravity).
    @Test(arguments: ["ce", "no", "so", "ea", "we", "noea", "soea", "sowe", "nowe"])
    func extendAspectRatioMakesTheBoxsShapeAtEveryGravity(_ gravity: String) async throws {
        #expect(try await size("s:300:600/exar:1:\(gravity)") == .init(width: 200, height: 400))
    }

    /// imgproxy: processing/extend_test.go, TestExtendAspectRatio's offsets and dpr, and
    /// options/parser/processing_options.go's long names `extend_aspect_ratio` and `extend_ar`.
    @Test(arguments: [
        ("s:300:600/exar:1:no:0:5", 200, 400), ("s:300:600/exar:1:no:0:5/dpr:0.5", 150, 300),
        ("s:300:600/exar:1:no:0:5/dpr:2", 200, 400), ("s:300:600/exar:1:ea:5:0/dpr:0.5", 150, 300),
        ("s:300:600/exar:1:no:0:0.1/dpr:0.5", 150, 300), ("s:300:600/extend_aspect_ratio:1", 200, 400),
        ("s:300:600/extend_ar:1", 200, 400),
    ])
    func extendAspectRatioOffsetsDprAndNames(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options) == .init(width: width, height: height))
    }

    /// imgproxy: processing/extend_test.go, TestExtendAspectRatio's offset written with the y part
    /// left out (`exar:1:ea:5`).
    @Test func extendAspectRatiosYOffsetMayBeLeftOut() async throws {
        #expect(try await size("s:300:600/exar:1:ea:5") == .init(width: 200, height: 400))
    }

    /// imgproxy: processing/padding_test.go, TestPadding (sides in pixels times dpr; the image
    /// scaled by dpr too).
    @Test(arguments: [("dpr:0.5", 120, 80), ("dpr:1", 240, 160), ("dpr:2/el:1", 480, 320)])
    func paddingAddsItsSidesTimesDpr(_ dpr: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size("pd:20:30:40:10/bg:ff0000/" + dpr) == .init(width: width, height: height))
        #expect(try await size("padding:20:30:40:10/bg:ff0000/" + dpr) == .init(width: width, height: height))
    }

    /// imgproxy: options/parser/apply.go's applyPaddingOption (a missing right side is the top, a
    /// missing bottom the top, a missing left the right).
    @Test(arguments: [("pd:10", 220, 120), ("pd:10:20", 240, 120), ("pd:10:20:30", 240, 140)])
    func missingPaddingSidesRepeatTheGivenOnes(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options) == .init(width: width, height: height))
    }

    /// imgproxy: options/parser/apply.go's applyPaddingOption (an empty side is a missing one).
    @Test func anEmptyPaddingSideIsAMissingOne() async throws {
        #expect(try await size("pd:10::30") == .init(width: 220, height: 140))
    }

    /// imgproxy: processing/padding_test.go, TestPadding (the padding is the background colour).
    @Test func paddingIsTheBackgroundColour() async throws {
        let image = try #require(try await answer("pd:10/bg:ff0000").image)
        let corner = image.pixel(x: 2, y: 2)
        #expect(corner.red == 255 && corner.green == 0 && corner.blue == 0 && corner.alpha == 255)
    }
}
