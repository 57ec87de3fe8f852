import Foundation
import Testing

/// `trim`/`t` as imgproxy's trim tests use it, on sources made here with the same kinds of
/// border (``ConformanceOrigin/trimFrames``, ``ConformanceOrigin/trimBands``,
/// ``ConformanceOrigin/trimAlpha``).
@Suite("Conformance: trim", .timeLimit(.minutes(10)))
struct TrimConformanceTests {
    private func size(_ options: String, _ fixture: String) async throws -> ConformanceAnswer.Size? {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source("/fixture/" + fixture), ext: "png"))
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer.size
    }

    /// imgproxy: processing/trim_test.go, TestThreshold (a higher threshold trims the rings
    /// closer to the background too).
    @Test(arguments: [
        ("t:5", 270, 160), ("trim:5", 270, 160), ("t:100", 250, 140), ("t:200", 230, 120),
        ("t:5:ffffff", 270, 160),
    ])
    func theThresholdSetsHowFarFromTheBackgroundIsTrimmed(_ options: String, _ width: Int, _ height: Int)
        async throws
    {
        #expect(try await size(options, "trim-frames.png") == .init(width: width, height: height))
    }

    /// imgproxy: processing/trim_test.go, TestThreshold's equalHor and equalVer cases (the
    /// colour left empty, the default).
    @Test(arguments: [("t:5::1", 280, 160), ("t:5::0:1", 270, 180), ("t:5::1:1", 280, 180), ("t:5:::1", 270, 180)])
    func equalCutsTakeTheSmallerSideOnThatAxis(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options, "trim-frames.png") == .init(width: width, height: height))
    }

    /// imgproxy: processing/trim_test.go, TestColor (the colour chooses which border is trimmed;
    /// without one, the top left pixel's).
    @Test(arguments: [("t:1", 200, 160), ("t:1:ff0000", 200, 160), ("t:1:0000ff", 200, 140), ("t:1:ffffff", 200, 200)])
    func theColourChoosesTheBorderTrimmed(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options, "trim-bands.png") == .init(width: width, height: height))
    }

    /// imgproxy: processing/trim_test.go, TestAlpha (transparency is trimmed as the source laid on
    /// the colour).
    @Test func aTrimColourOnATransparentSourceTrimsItAsLaidOnThatColour() async throws {
        #expect(try await size("t:1:ff00ff", "trim-alpha.png") == .init(width: 200, height: 130))
    }
}
