import CometServer
import Foundation
import Testing

@Suite("Service URL paths, imgproxy's grammar")
struct ThumbnailPathTests {
    private let base64 = "aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlLmpwZw"

    @Test func optionsAreSegmentsUpToTheFirstWithoutAColon() throws {
        let path = try ThumbnailPath(path: "/sig/rs:fill:300:200/g:sm/\(base64).webp")
        #expect(path.signature == "sig")
        #expect(path.options == ["rs:fill:300:200", "g:sm"])
        #expect(path.source == URL(string: "http://example.com/image.jpg"))
        #expect(path.sourceForm == .base64)
        #expect(path.fileExtension == "webp")
        #expect(path.signedPart == "/rs:fill:300:200/g:sm/\(base64).webp")
    }

    @Test func aPlainSourceIsTheRestOfThePathWithItsExtensionAfterAnAt() throws {
        let path = try ThumbnailPath(path: "/sig/w:300/h:200/plain/http://example.com/a/b.png@webp")
        #expect(path.options == ["w:300", "h:200"])
        #expect(path.sourceForm == .plain)
        #expect(path.canonicalSource == "http://example.com/a/b.png")
        #expect(path.fileExtension == "webp")
    }

    @Test func aPercentEncodedPlainSourceIsDecodedOnce() throws {
        let path = try ThumbnailPath(path: "/sig/plain/http%3A%2F%2Fexample.com%2Fa%20b.png%3Fx%3D1")
        #expect(path.canonicalSource == "http://example.com/a%20b.png?x=1")
        #expect(path.fileExtension == nil)
    }

    /// Found by the canonical spelling property: `[` `]` were encoded again after the decoding,
    /// so an IPv6 host came out percent-encoded and was refused.
    @Test(arguments: [
        ("http://[::1]:8080/a.jpg", "http://[::1]:8080/a.jpg"),
        ("http://%5B2001:DB8::1%5D/a.jpg", "http://[2001:db8::1]/a.jpg"),
        ("http%3A%2F%2F%5B2001%3Adb8%3A%3A1%5D%2Fa%5B1%5D.jpg", "http://[2001:db8::1]/a%5B1%5D.jpg"),
    ])
    func aPlainSourceMayNameAnIPv6Host(_ spelled: String, _ canonical: String) throws {
        #expect(try ThumbnailPath(path: "/sig/plain/" + spelled).canonicalSource == canonical)
    }

    @Test func aBase64SourceMaySpanSegmentsAndHavePadding() throws {
        let split = try ThumbnailPath(path: "/sig/q:80/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdlLmpwZw.png")
        #expect(split.canonicalSource == "http://example.com/image.jpg")
        let padded = try ThumbnailPath(path: "/sig/\(Base64URL.encode(Array("http://e.com/ab".utf8)))==")
        #expect(padded.canonicalSource == "http://e.com/ab")
    }

    @Test func aMergedSchemeSlashIsMendedBeforeTheSignatureIsChecked() throws {
        let path = try ThumbnailPath(path: "/sig/rs:fit:10:10/plain/https:/example.com/a.jpg")
        #expect(path.canonicalSource == "https://example.com/a.jpg")
        #expect(path.signedPart == "/rs:fit:10:10/plain/https://example.com/a.jpg")
    }

    /// Found by the fuzzer: every `/plain/{scheme}:/` was mended, also one in the source URL's own
    /// path, so the canonical spelling of such a source named another source.
    @Test func aPlainSegmentInTheSourceURLIsLeftAsWritten() throws {
        let path = try ThumbnailPath(path: "/sig/plain/http:/h.example/a/plain/x:/y.jpg")
        #expect(path.canonicalSource == "http://h.example/a/plain/x:/y.jpg")
        #expect(path.signedPart == "/plain/http://h.example/a/plain/x:/y.jpg")
    }

    @Test func onlyPresetsReadTheFirstSegmentAsPresetNames() throws {
        let path = try ThumbnailPath(path: "/sig/small:grey/plain/http://example.com/a.jpg", mode: .onlyPresets)
        #expect(path.options == ["pr:small:grey"])
    }

    @Test(arguments: [
        "/", "/sig", "/sig/",
    ])
    func aPathWithoutASignatureSegmentAndARestIs404(_ text: String) {
        #expect(throws: ServiceError.self) { try ThumbnailPath(path: text) }
        do { _ = try ThumbnailPath(path: text) } catch { #expect(error.status == 404) }
    }

    @Test(arguments: [
        "/s/rs:fit:1:1", "/s/plain/http://e.com/a.jpg@png@webp", "/s/YQ.png.webp", "/s/plain/@png",
        "/s/\(Base64URL.encode(Array("file:///etc/passwd".utf8)))", "/s/not*base64", "/s/plain/http://e.com/a.jpg@bmp",
        "/s/plain/http://u@e.com/a.jpg", "/s/plain/http://e.com/a%2.jpg", "/s/plain/http://e.com%2F@x/a.jpg",
    ])
    func badSourcesAre400(_ text: String) {
        #expect(throws: ServiceError.self, "\(text)") { try ThumbnailPath(path: text) }
    }

    @Test(arguments: [false, true])
    func makeAndParseRoundTrip(plain: Bool) throws {
        let source = URL(string: "https://img.example.com/a/b%20c.jpg?x=1&y=@2")!
        let made = ThumbnailPath.make(
            options: "rs:fill:64:64/q:80", source: source, fileExtension: "png", plain: plain, signer: nil)
        let path = try ThumbnailPath(path: made)
        #expect(path.source == source)
        #expect(path.options == ["rs:fill:64:64", "q:80"])
        #expect(path.fileExtension == "png")
        #expect(path.signature == "insecure")
    }
}
