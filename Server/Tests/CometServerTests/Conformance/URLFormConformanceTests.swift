import Foundation
import Testing

/// Every source form of imgproxy's "Processing an image" guide, sent to a real server (signed
/// with ``IndependentHMAC``) for a generated 200×100 JPEG on ``ConformanceOrigin``.
@Suite("Conformance: URL forms", .timeLimit(.minutes(10)))
struct URLFormConformanceTests {
    private func source() async throws -> String {
        try await ConformanceOrigin.get().source("/gen/200x100.jpg")
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePlainURLWithoutExtension.
    @Test func aPlainSourceWithoutAnExtensionKeepsTheSourcesFormat() async throws {
        let answer = try await ConformanceServers.signed().get(ImgproxyPath.plain("rs:fit:100:100", try await source()))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "jpeg" && answer.contentType == "image/jpeg")
        #expect(answer.size == .init(width: 100, height: 50))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePlainURL.
    @Test func aPlainSourcesAtExtensionSetsTheFormat() async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fit:100:100", try await source(), ext: "png"))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.contentType == "image/png")
        #expect(answer.size == .init(width: 100, height: 50))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePlainURLEscaped.
    @Test func aPercentEncodedPlainSourceIsDecodedOnceQueryIncluded() async throws {
        let origin = try await ConformanceOrigin.get()
        let path = "/tag/escaped-plain/200x100.jpg"
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fit:100:100", origin.source(path) + "?param=value", ext: "png", escaped: true))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 100, height: 50))
        #expect(origin.requests(path) == 1)
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParsePlainURLEscaped (without the
    /// extension, as TestParsePlainURLWithoutExtension).
    @Test func aPercentEncodedPlainSourceWithoutAnExtensionKeepsTheSourcesFormat() async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fit:50:50", try await source(), escaped: true))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "jpeg" && answer.size == .init(width: 50, height: 25))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParseBase64URL.
    @Test func aBase64SourcesDotExtensionSetsTheFormat() async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.base64("size:100:100", try await source() + "?param=value", ext: "png"))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 100, height: 50))
    }

    /// imgproxy: options/parser/processing_options_test.go, TestParseBase64URLWithoutExtension.
    @Test func aBase64SourceWithoutAnExtensionKeepsTheSourcesFormat() async throws {
        let answer = try await ConformanceServers.signed().get(ImgproxyPath.base64("size:100:100", try await source()))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "jpeg" && answer.size == .init(width: 100, height: 50))
    }

    /// imgproxy: the "Processing an image" guide (base64url, padding optional), as
    /// TestParseBase64URL.
    @Test(arguments: [false, true])
    func aBase64SourceMayBePaddedOrNot(_ padded: Bool) async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.base64("rs:fit:40:40", try await source(), ext: "webp", padded: padded))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "webp" && answer.size == .init(width: 40, height: 20))
    }

    /// imgproxy: the "Processing an image" guide (the encoded URL may be split with `/`), as
    /// TestParseBase64URL.
    @Test(arguments: [(16, false), (16, true), (5, false)])
    func aBase64SourceMayBeSplitOverSegments(_ every: Int, _ padded: Bool) async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.base64("rs:fit:40:40", try await source(), ext: "png", padded: padded, splitEvery: every))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 40, height: 20))
    }

    /// imgproxy: the "Processing an image" guide's `jpg` and `jpeg` (imagetype's names), as
    /// TestParsePlainURL.
    @Test(arguments: ["jpg", "jpeg", "JPG"])
    func bothNamesOfJPEGAreExtensions(_ ext: String) async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fit:40:40", origin.source("/gen/200x100.png"), ext: ext))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "jpeg" && answer.contentType == "image/jpeg")
    }

    /// imgproxy: integration_test/processing_handler_test.go's `/unsafe/…` and `/insecure/…`
    /// URLs (TestSkipProcessingPO, TestMatrix), with signing off.
    @Test(arguments: ["insecure", "unsafe", "_", "anything-at-all"])
    func withSigningOffAnySignatureSegmentIsAccepted(_ signature: String) async throws {
        let server = try await ConformanceServers.unsigned()
        let answer = try await ConformanceAnswer.get(
            server.url(ImgproxyPath.plain("rs:fit:40:40", try await source(), ext: "png"), signature: signature))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.format == "png" && answer.size == .init(width: 40, height: 20))
    }

    /// imgproxy: handlers/path_test.go, TestParsePath case PathWithQueryParams.
    @Test func theRequestsQueryIsNeitherSourceNorSigned() async throws {
        let server = try await ConformanceServers.signed()
        let signedPart = ImgproxyPath.plain("rs:fit:40:40", try await source(), ext: "png")
        let url = URL(string: server.url(signedPart).absoluteString + "?param1=value1&param2=value2")!
        let answer = try await ConformanceAnswer.get(url)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.size == .init(width: 40, height: 20))
    }

    /// imgproxy: handlers/path_test.go, TestParsePath case PathWithRedenormalization and
    /// TestRedenormalizePathHTTPProtocol case HTTP.
    @Test func aPlainSourcesMergedSchemeSlashesAreMendedBeforeTheSignatureIsChecked() async throws {
        let server = try await ConformanceServers.signed()
        let mended = ImgproxyPath.plain("rs:fit:40:40", try await source(), ext: "png")
        let merged = mended.replacingOccurrences(of: "/plain/http://", with: "/plain/http:/")
        let answer = try await ConformanceAnswer.get(
            server.url(merged, signature: server.sign(mended, with: server.pairs[0])))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.size == .init(width: 40, height: 20))
    }

    /// imgproxy: handlers/path_test.go, TestParsePath cases NoSignatureSeparator and OnlySignature.
    @Test(arguments: ["/invalid_path_without_slash", "/signature_only", "/signature_only/"])
    func aPathWithoutSignatureAndSourceIs404(_ path: String) async throws {
        let server = try await ConformanceServers.signed()
        let answer = try await ConformanceAnswer.get(URL(string: server.base + path)!)
        #expect(answer.status == 404, "\(answer.text)")
    }

    /// imgproxy: the "Processing an image" guide (a single `@` before the extension); imgproxy
    /// answers 404, comet-server a 400 (the guide: grammar errors are 400s).
    @Test func aPlainSourceWithTwoExtensionsIs400() async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fit:40:40", try await source(), ext: "png@webp"))
        #expect(answer.status == 400, "\(answer.text)")
    }

    /// imgproxy: the "Processing an image" guide (a single `.` before the extension); imgproxy
    /// answers 404, comet-server a 400 (the guide: grammar errors are 400s).
    @Test func aBase64SourceWithTwoExtensionsIs400() async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.base64("rs:fit:40:40", try await source(), ext: "png.webp"))
        #expect(answer.status == 400, "\(answer.text)")
    }

    /// imgproxy: options/parser/url_options.go (a segment with the separator is an option: an
    /// unknown name is an error, not the start of the source); imgproxy answers 404, comet-server
    /// a 400 naming it.
    @Test func anUnknownOptionIs400NamingIt() async throws {
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fit:40:40/nonsense:1", try await source()))
        #expect(answer.status == 400 && answer.text.contains("nonsense"), "\(answer.text)")
    }
}
