import Comet
import Foundation
import Testing

/// `rotate`/`rot`, `flip`/`fl` and `auto_rotate`/`ar` as imgproxy's rotate-and-flip tests use
/// them: on a 200×100 PNG whose corners differ (``ConformanceOrigin/gradient(width:height:alphaLeftHalf:)``:
/// red grows to the right, green downwards), each turn and mirror is told by the corner it puts
/// at the top left; and on the corpus's EXIF-oriented JPEGs.
@Suite("Conformance: rotate and flip", .timeLimit(.minutes(10)))
struct RotateAndFlipConformanceTests {
    /// The top left pixel's red and green of `options`' result, high (`true`) or low.
    private func topLeft(_ options: String) async throws -> (
        size: ConformanceAnswer.Size?, redHigh: Bool, greenHigh: Bool
    ) {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source("/gen/200x100.png"), ext: "png"))
        #expect(answer.status == 200, "\(options): \(answer.text)")
        let pixel = answer.image?.pixel(x: 0, y: 0) ?? RGBA8(red: 128, green: 128, blue: 128)
        return (answer.size, pixel.red > 200, pixel.green > 200)
    }

    /// imgproxy: processing/rotate_and_flip_test.go, TestRotateFlip (each quarter turn, clockwise).
    @Test(arguments: [
        ("rot:90", 100, 200, false, true), ("rotate:90", 100, 200, false, true), ("rot:180", 200, 100, true, true),
        ("rot:270", 100, 200, true, false), ("rot:-90", 100, 200, true, false), ("rot:360", 200, 100, false, false),
    ])
    func rotateTurnsClockwiseByQuarterTurns(_ options: String, _ width: Int, _ height: Int, _ red: Bool, _ green: Bool)
        async throws
    {
        let result = try await topLeft(options)
        #expect(result.size == .init(width: width, height: height))
        #expect(result.redHigh == red && result.greenHigh == green, "\(options)")
    }

    /// imgproxy: options/parser/apply.go's applyRotateOption ("Rotation angle must be a multiple
    /// of 90"; imgproxy answers 404, comet-server a 400).
    @Test func aRotationOtherThanQuarterTurnsIs400() async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rot:45", origin.source("/gen/200x100.png")))
        #expect(answer.status == 400, "\(answer.text)")
    }

    /// imgproxy: processing/rotate_and_flip_test.go, TestRotateFlip (horizontal, vertical and both
    /// mirrors, under the long name `flip` and the short `fl`; the flags may be left empty).
    @Test(arguments: [
        ("flip:1", true, false), ("fl:1", true, false), ("flip:1:0", true, false), ("flip:0:1", false, true),
        ("flip::1", false, true), ("fl:1:1", true, true),
    ])
    func flipMirrorsAlongTheAxesAskedFor(_ options: String, _ red: Bool, _ green: Bool) async throws {
        let result = try await topLeft(options)
        #expect(result.size == .init(width: 200, height: 100))
        #expect(result.redHigh == red && result.greenHigh == green, "\(options)")
    }

    /// The size of `options`' result of the corpus's `exif-orientation/{name}`.
    private func orientedSize(_ options: String, _ name: String) async throws -> ConformanceAnswer.Size? {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source("/corpus/exif-orientation/" + name), ext: "png"))
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer.size
    }

    /// imgproxy: processing/rotate_and_flip_test.go, TestOrientationAutoRotate (auto-rotation is
    /// on by default and `ar:1`; a quarter-turn orientation swaps the stored sides).
    @Test(
        .enabled(if: ServerTestCorpus.isAvailable, "needs the shared corpus"), arguments: ["", "ar:1", "auto_rotate:1"])
    func exifOrientationIsAppliedByDefault(_ options: String) async throws {
        #expect(try await orientedSize(options, "Landscape_6.jpg") == .init(width: 600, height: 450))
    }

    /// imgproxy: processing/rotate_and_flip_test.go, TestOrientationAutoRotate (`ar:0` keeps the
    /// stored pixels).
    @Test(.enabled(if: ServerTestCorpus.isAvailable, "needs the shared corpus"), arguments: ["ar:0", "auto_rotate:0"])
    func autoRotateOffKeepsTheStoredSides(_ options: String) async throws {
        #expect(try await orientedSize(options, "Landscape_6.jpg") == .init(width: 450, height: 600))
    }

    /// imgproxy: processing/rotate_and_flip_test.go, TestRotateFlipAutoRotate and TestRotateFlip
    /// (`rot` turns the image after its orientation, or the stored one with `ar:0`).
    @Test(.enabled(if: ServerTestCorpus.isAvailable, "needs the shared corpus"))
    func rotateTurnsTheOrientedImage() async throws {
        #expect(try await orientedSize("rot:90", "Landscape_6.jpg") == .init(width: 450, height: 600))
        #expect(try await orientedSize("ar:0/rot:90", "Landscape_6.jpg") == .init(width: 600, height: 450))
    }
}
