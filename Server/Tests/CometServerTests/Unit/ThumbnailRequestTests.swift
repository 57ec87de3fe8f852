@testable import CometServer
import Foundation
import Testing

@Suite("A thumbnail URL checked and keyed")
struct ThumbnailRequestTests {
    let signer = try! URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f")

    private func request(
        options: String, source: String, signed: Bool = false, accept: String? = nil,
        configuration: ServerConfiguration = ServerConfiguration()
    ) throws(ServiceError) -> ThumbnailRequest {
        var configuration = configuration
        if signed { configuration.signer = signer }
        let path = ThumbnailPath.make(options: options, source: URL(string: source)!, signer: configuration.signer)
        return try ThumbnailRequest(path: path, accept: accept, configuration: configuration)
    }

    @Test func theKeyIsTheDigestOfTheCanonicalOptionsTheFormatAndTheCanonicalSource() throws {
        let request = try request(options: "q:80/resize:fill:256:256/f:jpeg", source: "HTTP://Example.com:80/a.jpg")
        #expect(request.key == SHA256State.hexDigest(of: "rs:fill:256:256/q:80\njpeg\nhttp://example.com/a.jpg"))
        #expect(request.storeKey == "comet:v1:" + request.key)
    }

    @Test func percentEncodedOptionsAreReadAsTheirDecodedSpelling() throws {
        let source = Base64URL.encode(Array("http://example.com/a.jpg".utf8))
        let configuration = ServerConfiguration()
        let encoded = try ThumbnailRequest(
            path: "/unsigned/rs:fill:1%30:10/q:%380/\(source)", accept: nil, configuration: configuration)
        let plain = try ThumbnailRequest(
            path: "/unsigned/rs:fill:10:10/q:80/\(source)", accept: nil, configuration: configuration)
        #expect(encoded.key == plain.key)
        #expect(encoded.path.options == ["rs:fill:10:10", "q:80"])
    }

    @Test func aSignedURLIsAcceptedAndAnAlteredOneRefused() throws {
        let good = try request(options: "rs:fit:100:100", source: "http://example.com/a.jpg", signed: true)
        #expect(throws: ServiceError.badSignature) {
            try ThumbnailRequest(
                path: "/\(good.path.signature)"
                    + good.path.signedPart.replacingOccurrences(of: "100:100", with: "101:100"),
                accept: nil,
                configuration: {
                    var configuration = ServerConfiguration()
                    configuration.signer = signer
                    return configuration
                }())
        }
    }

    @Test func withoutAFormatTheAcceptHeaderChoosesAndTheAnswerVaries() throws {
        let negotiated = try request(
            options: "rs:fit:100:100", source: "http://example.com/a.jpg", accept: "image/webp")
        #expect(negotiated.choice == .exactly(.webp) && negotiated.variesOnAccept)
        let asked = try request(options: "f:png", source: "http://example.com/a.jpg", accept: "image/webp")
        #expect(asked.choice == .exactly(.png) && !asked.variesOnAccept)
    }

    @Test func theSourceAllowListIsChecked() throws {
        var configuration = ServerConfiguration()
        configuration.sourcePolicy = SourcePolicy(allowedSources: ["images.example.com"])
        #expect(throws: Never.self) {
            try request(options: "", source: "http://images.example.com/a.jpg", configuration: configuration)
        }
        #expect(throws: ServiceError.sourceRefused("http://other.example.com/a.jpg is not on the source allow-list")) {
            try request(options: "", source: "http://other.example.com/a.jpg", configuration: configuration)
        }
    }

    @Test func aResultSentAsTheSourceIsNamedWithItsFormatsExtension() throws {
        let request = try request(options: "skp:jxl:heic/fn:scan", source: "http://example.com/a.jxl")
        #expect(request.contentDisposition(contentType: "image/jxl") == "inline; filename=\"scan.jxl\"")
        #expect(request.contentDisposition(contentType: "image/heic") == "inline; filename=\"scan.heic\"")
        #expect(request.contentDisposition(contentType: "image/jpeg") == "inline; filename=\"scan.jpg\"")
    }
}
