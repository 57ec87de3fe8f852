import CometServer
import Foundation
import Testing

@Suite("Service URL paths")
struct ThumbnailPathTests {
    @Test func decodesTheSourceAndKeepsTheExtensionSigned() throws {
        let path = try ThumbnailPath(
            signature: "sig", options: "rs:fit:10:10", source: "aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlLmpwZw.webp")
        #expect(path.source == URL(string: "http://example.com/image.jpg"))
        #expect(path.fileExtension == "webp")
        #expect(path.signedPart == "/rs:fit:10:10/aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlLmpwZw.webp")
    }

    @Test func refusesSourcesThatAreNotHTTPURLs() {
        let file = Base64URL.encode(Array("file:///etc/passwd".utf8))
        #expect(throws: ServiceError.self) { try ThumbnailPath(signature: "s", options: "-", source: file) }
        #expect(throws: ServiceError.self) { try ThumbnailPath(signature: "s", options: "-", source: "not*base64") }
    }

    @Test func refusesUnknownExtensions() {
        #expect(throws: ServiceError.self) {
            try ThumbnailPath(signature: "s", options: "-", source: "aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlLmpwZw.bmp")
        }
    }

    @Test func makeAndParseRoundTrip() throws {
        let source = URL(string: "https://img.example.com/a/b.jpg?x=1&y=2")!
        let made = ThumbnailPath.make(options: "rs:fill:64:64", source: source, fileExtension: "png", signer: nil)
        let segments = made.split(separator: "/").map(String.init)
        let path = try ThumbnailPath(signature: segments[0], options: segments[1], source: segments[2])
        #expect(path.source == source)
        #expect(segments[0] == "unsigned")
    }
}
