import Foundation
import Testing

/// imgproxy's handling and metadata options through a real server: `skip_processing`/`skp`,
/// `raw`, `cachebuster`/`cb`, `expires`/`exp`, `filename`/`fn`, `return_attachment`/`att`,
/// `strip_metadata`/`sm`, `keep_copyright`/`kcr`, `strip_color_profile`/`scp` and
/// `enforce_thumbnail`/`eth`.
@Suite("Conformance: delivery and metadata", .timeLimit(.minutes(10)))
struct DeliveryConformanceTests {
    private func answer(_ options: String, _ path: String = "/gen/16x16.png", ext: String? = nil) async throws
        -> ConformanceAnswer
    {
        let origin = try await ConformanceOrigin.get()
        return try await ConformanceServers.signed().get(ImgproxyPath.plain(options, origin.source(path), ext: ext))
    }

    private var sourceBytes: [UInt8] { ConformanceOrigin.generated("16x16.png")! }

    /// imgproxy: integration_test/processing_handler_test.go, TestSkipProcessingPO, and
    /// options/parser/processing_options_test.go, TestParseSkipProcessing.
    @Test(arguments: ["rs:fill:4:4/skp:png", "rs:fill:4:4/skip_processing:png", "rs:fill:4:4/skp:jpg:png"])
    func aSkippedFormatIsSentAsItIs(_ options: String) async throws {
        let answer = try await answer(options)
        #expect(answer.status == 200 && answer.contentType == "image/png", "\(answer.text)")
        #expect(answer.body == sourceBytes)
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSkipProcessingSameFormat.
    @Test func aSkippedFormatAskedForInItsOwnFormatIsSentAsItIs() async throws {
        let answer = try await answer("rs:fill:4:4/skp:png", ext: "png")
        #expect(answer.status == 200 && answer.body == sourceBytes, "\(answer.text)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSkipProcessingDifferentFormat (a
    /// skipped format asked for in another format is processed).
    @Test func aSkippedFormatAskedForInAnotherFormatIsProcessed() async throws {
        let answer = try await answer("rs:fill:4:4/skp:png", ext: "jpg")
        #expect(answer.status == 200 && answer.format == "jpeg", "\(answer.text)")
        #expect(answer.size == .init(width: 4, height: 4))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParseSkipProcessingInvalid
    /// (imgproxy answers 404; comet-server a 400 naming the option).
    @Test func anUnknownSkippedFormatIs400() async throws {
        let answer = try await answer("skp:jpg:png:bad_format")
        #expect(answer.status == 400 && answer.text.contains("skp"), "\(answer.text)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestRawOption.
    @Test func rawSendsTheSourceAsItIs() async throws {
        let answer = try await answer("raw:1")
        #expect(answer.status == 200 && answer.body == sourceBytes, "\(answer.text)")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathCachebuster (under both
    /// names it changes the result's identity, not its pixels).
    @Test(arguments: ["cb:123", "cachebuster:123"])
    func aCachebusterChangesTheETagOnly(_ options: String) async throws {
        let busted = try await answer("rs:fit:8:8/" + options, ext: "png")
        let plain = try await answer("rs:fit:8:8", ext: "png")
        #expect(busted.status == 200 && busted.size == plain.size, "\(busted.text)")
        #expect(busted.header("ETag") != nil && busted.header("ETag") != plain.header("ETag"))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParseExpires (a far-future time,
    /// the year 3000, is valid).
    @Test(arguments: ["exp:32503669200", "expires:32503669200", "exp:4102444800"])
    func aFutureExpiryIsServed(_ options: String) async throws {
        let answer = try await answer(options, ext: "png")
        #expect(answer.status == 200, "\(answer.text)")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParseExpiresExpired ("Expired
    /// URL", a 404).
    @Test(arguments: ["exp:1609448400", "expires:1609448400"])
    func anExpiredURLIs404(_ options: String) async throws {
        let answer = try await answer(options, ext: "png")
        #expect(answer.status == 404, "\(answer.text)")
    }

    /// imgproxy: options/parser/apply.go's applyFilenameOption (a plain name, or base64url with
    /// the second argument true), and the "Processing an image" guide's `return_attachment`.
    @Test(arguments: [
        ("fn:cat", "inline"), ("filename:cat", "inline"), ("fn:Y2F0:1", "inline"), ("fn:cat/att:1", "attachment"),
        ("fn:cat/return_attachment:1", "attachment"),
    ])
    func filenameAndAttachmentSetTheContentDisposition(_ options: String, _ disposition: String) async throws {
        let answer = try await answer(options, ext: "png")
        let header = answer.header("Content-Disposition") ?? ""
        #expect(answer.status == 200, "\(answer.text)")
        #expect(header.hasPrefix(disposition) && header.contains("filename=\"cat.png\""), "\(header)")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePathStripMetadata (Go's
    /// boolean spellings: `true`), and the other metadata options under both names.
    @Test(arguments: [
        "sm:1", "strip_metadata:1", "strip_metadata:true", "kcr:0", "keep_copyright:0", "scp:1",
        "strip_color_profile:1", "eth:1", "enforce_thumbnail:1",
    ])
    func metadataOptionsAreAccepted(_ options: String) async throws {
        let answer = try await answer("rs:fit:8:8/" + options, ext: "png")
        #expect(answer.status == 200 && answer.size == .init(width: 8, height: 8), "\(options): \(answer.text)")
    }

    /// imgproxy: options/parser/apply.go's parseBool (strconv.ParseBool: `1`, `t`, `true`, `TRUE`…).
    @Test(arguments: ["el:1", "el:true", "el:t", "enlarge:TRUE"])
    func booleanArgumentsTakeGosSpellings(_ enlarge: String) async throws {
        let answer = try await answer("w:32/" + enlarge, ext: "png")
        #expect(answer.status == 200 && answer.size == .init(width: 32, height: 32), "\(enlarge): \(answer.text)")
    }
}
