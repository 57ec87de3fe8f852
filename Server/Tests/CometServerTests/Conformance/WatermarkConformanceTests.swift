import Comet
import Foundation
import Testing

/// `watermark`/`wm` as imgproxy's watermark tests use it, with ``ConformanceServers/watermark``
/// (40×20 opaque blue) over a 1080×902 JPEG (the size of imgproxy's `24-bpp.bmp`) and a 492×229
/// three-frame GIF (the size of imgproxy's `gif.gif`).
@Suite("Conformance: watermark", .timeLimit(.minutes(10)))
struct WatermarkConformanceTests {
    private func answer(_ options: String, _ path: String = "/gen/1080x902.jpg", ext: String = "jpg") async throws
        -> ConformanceAnswer
    {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.watermarked().get(
            ImgproxyPath.plain(options, origin.source(path), ext: ext))
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer
    }

    /// imgproxy: processing/watermark_test.go, TestWatermark's positions (the result keeps its size).
    @Test(arguments: ["ce", "no", "ea", "so", "we", "nowe", "noea", "sowe", "soea", "re"])
    func aWatermarkAtAnyPositionKeepsTheResultsSize(_ position: String) async throws {
        #expect(try await answer("wm:1:\(position)").size == .init(width: 1080, height: 902))
    }

    /// imgproxy: processing/watermark_test.go, TestWatermark's offsets, opacities, scales and dpr,
    /// and options/parser/processing_options_test.go, TestParsePathWatermark.
    @Test(arguments: [
        ("wm:1:no:50:0", 1080, 902), ("wm:1:no:0:50", 1080, 902), ("wm:1:no:50:50", 1080, 902),
        ("wm:1:no:50:50/dpr:2", 1080, 902), ("wm:1:re:50:0", 1080, 902), ("wm:1:re:50:50", 1080, 902),
        ("wm:0:re", 1080, 902), ("wm:0.5:re", 1080, 902), ("wm:1:re:0:0:0.5", 1080, 902),
        ("watermark:0.5:soea:10:20:0.6", 1080, 902),
    ])
    func watermarkOffsetsOpacitiesAndScalesKeepTheResultsSize(_ options: String, _ width: Int, _ height: Int)
        async throws
    {
        #expect(try await answer(options).size == .init(width: width, height: height))
    }

    /// imgproxy: processing/watermark_test.go, TestWatermark's dpr 0.5 cases (dpr scales the
    /// result without a resize).
    @Test(arguments: ["wm:1:no:50:50/dpr:0.5", "wm:1:re:50:50/dpr:0.5"])
    func dprScalesAWatermarkedResultWithoutAResize(_ options: String) async throws {
        #expect(try await answer(options).size == .init(width: 540, height: 451))
    }

    /// imgproxy: options/parser/apply.go's applyWatermarkOption (offsets and scale may be left
    /// empty or out: `wm:1:no:50`, `wm:1:re:::0.5`).
    @Test(arguments: ["wm:1:no:50", "wm:1:re:::0.5"])
    func watermarkArgumentsMayBeLeftEmptyOrOut(_ options: String) async throws {
        #expect(try await answer(options).size == .init(width: 1080, height: 902))
    }

    /// imgproxy: processing/watermark_test.go, TestWatermark (an opaque mark at the top left
    /// covers that corner).
    @Test func anOpaqueWatermarkCoversItsCorner() async throws {
        let image = try #require(try await answer("rs:fit:200:200/wm:1:nowe", ext: "png").image)
        let corner = image.pixel(x: 3, y: 3)
        #expect(corner.red < 10 && corner.green < 10 && corner.blue > 245, "\(corner)")
    }

    /// imgproxy: processing/watermark_test.go, TestWatermarkAnimation (every frame marked; dpr
    /// scales the animation, but never enlarges it).
    @Test(arguments: [("dpr:0.5", 246, 115), ("dpr:2", 492, 229)])
    func aWatermarkedAnimationStaysAnimatedAndDprScalesIt(_ dpr: String, _ width: Int, _ height: Int) async throws {
        let answer = try await answer("wm:0.5:nowe:10:20/" + dpr, "/anim/492x229.gif", ext: "gif")
        #expect(answer.format == "gif" && answer.frameCount == 3)
        #expect(answer.size == .init(width: width, height: height))
    }
}
