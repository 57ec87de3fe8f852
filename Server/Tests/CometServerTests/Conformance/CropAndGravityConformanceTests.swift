import Foundation
import Testing

/// `crop`/`c` and `gravity`/`g` as imgproxy's crop tests use them, on a 200×100 PNG (the size of
/// imgproxy's `geometry.png`).
@Suite("Conformance: crop and gravity", .timeLimit(.minutes(10)))
struct CropAndGravityConformanceTests {
    private static let source = "/gen/200x100.png"

    private func answer(_ options: String) async throws -> ConformanceAnswer {
        let origin = try await ConformanceOrigin.get()
        return try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source(Self.source), ext: "png"))
    }

    private func size(_ options: String) async throws -> ConformanceAnswer.Size? {
        let answer = try await answer(options)
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer.size
    }

    /// imgproxy: processing/crop_test.go, TestResizeFill (every gravity keeps the fill's size).
    @Test(arguments: ["ce", "no", "so", "ea", "we", "noea", "nowe", "soea", "sowe"])
    func everyCompassGravityKeepsTheFillsSize(_ gravity: String) async throws {
        #expect(try await size("rs:fill:100:26/g:\(gravity)") == .init(width: 100, height: 26))
        #expect(try await size("rs:fill:26:100/gravity:\(gravity)") == .init(width: 26, height: 100))
    }

    /// imgproxy: processing/crop_test.go, TestResizeFill's cases with offsets and dpr.
    @Test(arguments: [
        ("rs:fill:100:26/g:ce/dpr:2", 200, 52), ("rs:fill:100:26/g:no:0:5", 100, 26),
        ("rs:fill:100:26/g:no:0:5/dpr:0.5", 50, 13), ("rs:fill:100:26/g:no:0:5/dpr:2", 200, 52),
        ("rs:fill:26:100/g:no:5:0", 26, 100), ("rs:fill:26:100/g:no:5:0/dpr:0.5", 13, 50),
        ("rs:fill:26:100/g:no:5:0/dpr:2", 26, 100), ("rs:fill:100:26/g:no:0:0.1", 100, 26),
        ("rs:fill:100:26/g:no:0:0.1/dpr:0.5", 50, 13), ("rs:fill:100:26/g:no:0:0.1/dpr:2", 200, 52),
    ])
    func gravityOffsetsAndDprKeepTheFillsSize(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options) == .init(width: width, height: height))
    }

    /// imgproxy: processing/crop_test.go, TestResizeFill's offsets written with the optional parts
    /// left out or empty (`g:no::5`, `g:no:5`), as options/parser/apply.go reads them.
    @Test(arguments: ["g:no::5", "g:no:5", "g:no:0:5"])
    func aGravitysOffsetsMayBeLeftEmptyOrOut(_ gravity: String) async throws {
        #expect(try await size("rs:fill:100:26/" + gravity) == .init(width: 100, height: 26))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathGravityFocusPoint.
    @Test func aFocusPointGravityKeepsTheFillsSize() async throws {
        #expect(try await size("rs:fill:100:26/gravity:fp:0.5:0.75") == .init(width: 100, height: 26))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathGravityReplicate and
    /// TestParsePathCropGravityReplicate (imgproxy answers 404; comet-server a 400).
    @Test(arguments: ["g:re", "c:100:200:re"])
    func replicateIsNoCropGravity(_ options: String) async throws {
        #expect(try await answer(options).status == 400)
    }

    /// imgproxy: processing/crop_test.go, TestCrop (every crop gravity, offsets in pixels and in
    /// fractions).
    @Test(arguments: [
        "c:50:50:ce", "c:50:50:no", "c:50:50:so", "c:50:50:ea", "c:50:50:we", "c:50:50:noea", "c:50:50:nowe",
        "c:50:50:soea", "c:50:50:sowe", "c:50:50:ce:10:0", "c:50:50:ce:0:10", "c:50:50:ce:10:10", "c:50:50:ce:0.1:0",
        "c:50:50:ce:0:0.1", "c:50:50:ce:0.1:0.1", "crop:50:50", "crop:50:50:nowe:10:20",
    ])
    func aCropIsItsSizeWhereverItIsPlaced(_ options: String) async throws {
        #expect(try await size(options) == .init(width: 50, height: 50))
    }

    /// imgproxy: processing/crop_test.go, TestCrop's offsets with the y offset left out
    /// (`c:50:50:ce:10`), as options/parser/apply.go reads it.
    @Test func aCropsYOffsetMayBeLeftOut() async throws {
        #expect(try await size("c:50:50:ce:10") == .init(width: 50, height: 50))
    }

    /// imgproxy: processing/crop_test.go, TestCrop's Dpr case (dpr halves the crop's result,
    /// without a resize).
    @Test func dprScalesACropWithoutAResize() async throws {
        #expect(try await size("c:50:50:ce:10:10/dpr:0.5") == .init(width: 25, height: 25))
    }

    /// imgproxy: processing/crop_test.go, TestCropGravityPriority (a crop's own gravity wins over
    /// `g`; without one, `g` places it).
    @Test func aCropsOwnGravityWinsOverTheGeneralOne() async throws {
        let byGeneral = try await answer("g:no/c:50:50")
        let byOwn = try await answer("c:50:50:no")
        let both = try await answer("g:so/c:50:50:no")
        #expect(byGeneral.status == 200 && byOwn.status == 200 && both.status == 200)
        #expect(byGeneral.body == byOwn.body)
        #expect(byOwn.body == both.body)
    }

    /// imgproxy: processing/prepare.go's calcCropSize (a side below 1 is a fraction of the
    /// source's, 0 the whole side).
    @Test(arguments: [("c:0.5:0.5", 100, 50), ("c:0:50", 200, 50), ("c:100", 100, 100)])
    func cropSidesMayBeFractionsOrWhole(_ options: String, _ width: Int, _ height: Int) async throws {
        #expect(try await size(options) == .init(width: width, height: height))
    }
}
