import Foundation
import Testing

/// `format`/`f`/`ext`, the extension, `quality`/`q`, `format_quality`/`fq` and `max_bytes`/`mb`:
/// each result's format by its magic bytes and `Content-Type`, its size by decoding it.
@Suite("Conformance: formats and quality", .timeLimit(.minutes(10)))
struct FormatConformanceTests {
    private static let types = [
        "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "avif": "image/avif",
        "gif": "image/gif",
    ]

    private func answer(_ options: String, _ path: String, ext: String? = nil) async throws -> ConformanceAnswer {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(options, origin.source(path), ext: ext))
        #expect(answer.status == 200, "\(options) \(path): \(answer.text)")
        return answer
    }

    /// imgproxy: integration_test/matrix_test.go, TestMatrix (every source format to every
    /// target format comet-server writes, asked for by the extension).
    @Test(arguments: ["png", "jpg", "webp", "gif"], ["jpg", "png", "webp", "avif", "gif"])
    func everySourceFormatConvertsToEveryTarget(_ source: String, _ target: String) async throws {
        let answer = try await answer("", "/gen/64x32.\(source)", ext: target)
        let expected = target == "jpg" ? "jpeg" : target
        #expect(answer.format == expected && answer.contentType == Self.types[expected])
        #expect(answer.size == .init(width: 64, height: 32))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathFormat, and
    /// options/parser/processing_options.go's third name `ext`.
    @Test(arguments: ["f:webp", "format:webp", "ext:webp"])
    func theFormatOptionSetsTheFormatUnderEveryName(_ options: String) async throws {
        let answer = try await answer(options, "/gen/64x32.jpg")
        #expect(answer.format == "webp" && answer.contentType == "image/webp")
    }

    /// imgproxy: options/parser/processing_options.go's parsePathOptions (the extension, applied
    /// after the options, wins over `f`).
    @Test func theExtensionWinsOverTheFormatOption() async throws {
        let answer = try await answer("f:webp", "/gen/64x32.jpg", ext: "png")
        #expect(answer.format == "png")
    }

    /// imgproxy: the "Processing an image" guide (without an extension or `f`, the source's
    /// format when it is one of the preferred formats, `IMGPROXY_PREFERRED_FORMATS`, by default
    /// JPEG, PNG and GIF), as TestParsePlainURLWithoutExtension.
    @Test(arguments: ["png", "jpg", "gif"])
    func withoutAFormatTheSourcesFormatIsKept(_ source: String) async throws {
        let answer = try await answer("rs:fit:32:32", "/gen/64x32.\(source)")
        #expect(answer.format == (source == "jpg" ? "jpeg" : source), "\(answer.contentType ?? "no type")")
        #expect(answer.size == .init(width: 32, height: 16))
    }

    /// imgproxy: processing's result format with the default preferred formats (JPEG, PNG, GIF):
    /// an opaque WebP source, not among them, gives the first that fits, JPEG.
    @Test func withoutAFormatAnOpaqueWebPSourceGivesJPEG() async throws {
        let answer = try await answer("rs:fit:32:32", "/gen/64x32.webp")
        #expect(answer.format == "jpeg", "\(answer.contentType ?? "no type")")
        #expect(answer.size == .init(width: 32, height: 16))
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestQualitySettings (a lower quality
    /// makes a smaller JPEG; `fq` sets one format's quality as `q` does).
    @Test func qualityAndFormatQualitySetTheJPEGsQuality() async throws {
        let high = try await answer("q:95", "/gen/400x300.png", ext: "jpg")
        let low = try await answer("q:1", "/gen/400x300.png", ext: "jpg")
        let lowLong = try await answer("quality:1", "/gen/400x300.png", ext: "jpg")
        let formatLow = try await answer("fq:jpeg:1", "/gen/400x300.png", ext: "jpg")
        let formatLowLong = try await answer("format_quality:jpeg:1", "/gen/400x300.png", ext: "jpg")
        #expect(low.body.count < high.body.count / 2)
        #expect(lowLong.body == low.body && formatLow.body == low.body && formatLowLong.body == low.body)
    }

    /// imgproxy: options/parser/apply.go's applyFormatQualityOption (`jpg` is JPEG's other name).
    @Test func formatQualityTakesJPGAsJPEGsName() async throws {
        let jpg = try await answer("fq:jpg:1", "/gen/400x300.png", ext: "jpg")
        let jpeg = try await answer("fq:jpeg:1", "/gen/400x300.png", ext: "jpg")
        #expect(jpg.body == jpeg.body)
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestMaxBytes (the result is at most
    /// that many bytes).
    @Test(arguments: ["mb", "max_bytes"])
    func maxBytesBoundsTheResult(_ name: String) async throws {
        let full = try await answer("q:95", "/gen/400x300.png", ext: "jpg")
        let bound = full.body.count / 2
        let answer = try await answer("q:95/\(name):\(bound)", "/gen/400x300.png", ext: "jpg")
        #expect(answer.format == "jpeg" && answer.body.count <= bound, "\(answer.body.count) > \(bound)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestErrorSavingToSVG (a format that
    /// cannot be written is a 422).
    @Test func aFormatThatCannotBeWrittenIs422() async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fill:4:4", origin.source("/gen/16x16.png"), ext: "svg"))
        #expect(answer.status == 422, "\(answer.text)")
    }
}
