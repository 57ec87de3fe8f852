import Foundation
import Testing

/// The HTTP statuses imgproxy's handler tests name, asked of real servers. Where comet-server
/// answers otherwise on purpose, the test names both and the reason the Serving guide gives.
@Suite("Conformance: statuses", .timeLimit(.minutes(10)))
struct StatusConformanceTests {
    /// imgproxy: integration_test/processing_handler_test.go, TestSourceFormatNotSupported (a
    /// source that cannot be decoded is a 422).
    @Test func aSourceThatIsNoImageIs422() async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fill:4:4", origin.source("/garbage")))
        #expect(answer.status == 422, "\(answer.text)")
    }

    /// imgproxy: the source's 404 passed on (imgproxy's fetcher answers a missing source with 404).
    @Test func aMissingSourceIs404() async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fill:4:4", origin.source("/missing")))
        #expect(answer.status == 404, "\(answer.text)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSourceNetworkValidation case
    /// AllowLoopbackSourceAddressesFalse. imgproxy answers 404; comet-server answers 403
    /// `source_refused`, as the guide's errors list says, so that a refused source is told from a
    /// missing one.
    @Test func aLoopbackSourceIsRefusedWhenPrivateNetworksAreNot() async throws {
        let origin = try await ConformanceOrigin.get()
        let path = "/tag/refused-loopback/16x16.png"
        let answer = try await ConformanceServers.publicSourcesOnly().get(
            ImgproxyPath.plain("rs:fill:4:4", origin.source(path)))
        #expect(answer.status == 403, "\(answer.text)")
        #expect(origin.requests(path) == 0)
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSourceNetworkValidation case
    /// AllowLoopbackSourceAddressesTrue.
    @Test func aLoopbackSourceIsServedWhenAllowed() async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain("rs:fill:4:4", origin.source("/gen/16x16.png")))
        #expect(answer.status == 200 && answer.size == .init(width: 4, height: 4), "\(answer.text)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestMaxSrcFileSizeGlobal (a source
    /// over the server's byte limit is a 422).
    @Test func aSourceOverTheServersByteLimitIs422() async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.tinySources().get(
            ImgproxyPath.plain("rs:fill:4:4", origin.source("/gen/200x100.png")))
        #expect(answer.status == 422, "\(answer.text)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestETagDataMatch (a matching
    /// `If-None-Match` is a 304 with the same ETag).
    @Test func aMatchingIfNoneMatchIs304() async throws {
        let origin = try await ConformanceOrigin.get()
        let server = try await ConformanceServers.signed()
        let path = ImgproxyPath.plain("rs:fill:4:4", origin.source("/gen/16x16.png"), ext: "png")
        let first = try await server.get(path)
        let etag = try #require(first.header("ETag"))
        let second = try await server.get(path, headers: ["If-None-Match": etag])
        #expect(second.status == 304)
        #expect(second.header("ETag") == etag)
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSignatureValidationFailure case
    /// BadSignature (403, before the source is fetched).
    @Test func aBadSignatureIs403BeforeAnyFetch() async throws {
        let origin = try await ConformanceOrigin.get()
        let server = try await ConformanceServers.signed()
        let path = "/tag/bad-signature/16x16.png"
        let answer = try await ConformanceAnswer.get(
            server.url(ImgproxyPath.plain("rs:fill:4:4", origin.source(path)), signature: "bad-signature"))
        #expect(answer.status == 403)
        #expect(origin.requests(path) == 0)
    }

    /// imgproxy: options/parser/errors.go's OptionArgumentError (404 there: "Invalid URL").
    /// comet-server answers 400 `bad_options` naming the option, before any fetch, as the guide
    /// documents, so that a malformed URL is told from a missing source.
    @Test func aBadOptionArgumentIs400BeforeAnyFetch() async throws {
        let origin = try await ConformanceOrigin.get()
        let path = "/tag/bad-argument/16x16.png"
        let answer = try await ConformanceServers.signed().get(ImgproxyPath.plain("rs:fill:-1:4", origin.source(path)))
        #expect(answer.status == 400 && answer.text.contains("rs"), "\(answer.text)")
        #expect(origin.requests(path) == 0)
    }
}
