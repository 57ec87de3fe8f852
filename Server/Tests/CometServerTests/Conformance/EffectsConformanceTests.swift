import Comet
import Foundation
import Testing

/// `blur`/`bl`, `sharpen`/`sh`, `pixelate`/`pix` and `background`/`bg` through a real server, on
/// the generated 200×100 picture (opaque, or with its left half transparent for `bg`).
@Suite("Conformance: effects and background", .timeLimit(.minutes(10)))
struct EffectsConformanceTests {
    private func answer(_ options: String, _ path: String = "/gen/200x100.png", ext: String = "png") async throws
        -> ConformanceAnswer
    {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source(path), ext: ext))
        #expect(answer.status == 200, "\(options): \(answer.text)")
        return answer
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathBlur and
    /// TestParsePathSharpen (both names; the effect changes the pixels, not the size).
    @Test(arguments: [("bl:2", "blur:2"), ("sh:2", "sharpen:2"), ("pix:10", "pixelate:10")])
    func anEffectChangesThePixelsUnderEitherName(_ short: String, _ long: String) async throws {
        let plain = try await answer("rs:fit:100:100")
        let shortAnswer = try await answer("rs:fit:100:100/" + short)
        let longAnswer = try await answer("rs:fit:100:100/" + long)
        #expect(shortAnswer.size == .init(width: 100, height: 50))
        #expect(shortAnswer.body != plain.body)
        #expect(shortAnswer.body == longAnswer.body)
    }

    /// imgproxy: options/parser/apply.go's applyPixelateOption (squares of the size, one colour each).
    @Test func pixelateMakesSquaresOfOneColour() async throws {
        let image = try #require(try await answer("pix:10").image)
        #expect(image.pixel(x: 0, y: 0) == image.pixel(x: 9, y: 9))
        #expect(image.pixel(x: 0, y: 0) != image.pixel(x: 190, y: 90))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathBlur's and
    /// TestParsePathSharpen's 0.2 (a small sigma is accepted).
    @Test(arguments: ["bl:0.2", "sh:0.2"])
    func aSmallSigmaIsAccepted(_ options: String) async throws {
        #expect(try await answer(options).size == .init(width: 200, height: 100))
    }

    /// The colour of the transparent left half's pixel at (10, 50) in `options`' result, with
    /// `ext`'s format.
    private func background(_ options: String, ext: String) async throws -> RGBA8? {
        try await answer(options, "/gen/200x100-alpha.png", ext: ext).image?.pixel(x: 10, y: 50)
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathBackgroundHex (and the
    /// short hex form).
    @Test(arguments: ["bg:ff0000", "background:ff0000", "bg:f00"])
    func aHexBackgroundFillsTransparencyInJPEG(_ options: String) async throws {
        let pixel = try #require(try await background(options, ext: "jpg"))
        #expect(pixel.red > 245 && pixel.green < 10 && pixel.blue < 10, "\(pixel)")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathBackground (R:G:B in decimal).
    @Test func anRGBBackgroundFillsTransparencyInJPEG() async throws {
        let pixel = try #require(try await background("bg:255:0:0", ext: "jpg"))
        #expect(pixel.red > 245 && pixel.green < 10 && pixel.blue < 10, "\(pixel)")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathBackgroundDisable (`bg:`
    /// resets it: JPEG's transparency is then white).
    @Test func anEmptyBackgroundResetsIt() async throws {
        let pixel = try #require(try await background("bg:ff0000/bg:", ext: "jpg"))
        #expect(pixel.red > 245 && pixel.green > 245 && pixel.blue > 245, "\(pixel)")
    }

    /// imgproxy: processing/flatten.go and ProcessingOptions.ShouldFlatten (a background set
    /// flattens every result, PNG too).
    @Test func aBackgroundFlattensAPNGResultToo() async throws {
        let pixel = try #require(try await background("bg:ff0000", ext: "png"))
        #expect(pixel.alpha == 255 && pixel.red == 255 && pixel.green == 0 && pixel.blue == 0, "\(pixel)")
    }

    /// imgproxy: processing/flatten.go (no background: a PNG result keeps its transparency).
    @Test func withoutABackgroundAPNGResultKeepsItsTransparency() async throws {
        let pixel = try #require(try await background("", ext: "png"))
        #expect(pixel.alpha == 0, "\(pixel)")
    }
}
