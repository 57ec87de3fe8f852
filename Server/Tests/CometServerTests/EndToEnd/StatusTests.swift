import Comet
import CometServer
import Foundation
import Testing

/// Every status the service answers with, through a real HTTP client against a real origin.
@Suite("HTTP statuses", .timeLimit(.minutes(10)))
struct StatusTests {
    let client = HTTPClient()

    @Test func aSignedURLGetsTheResizedImage() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("rs:fill:64:48/f:png", origin.url("/img/photo.jpg")))
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/png")
            let decoded = try ImageDecoders.decode(Data(answer.body))
            #expect(decoded.image.width == 64 && decoded.image.height == 48)
            #expect(origin.requests("/img/photo.jpg") == 1)
        }
    }

    @Test func theSignatureCoversThePathAsWrittenAsImgproxysDoes() async throws {
        try await withOriginAndServer { origin, server in
            let signed = server.url("rs:fit:40:40/f:png", origin.url("/img/photo.jpg")).absoluteString
            let reencoded = signed.replacingOccurrences(of: "rs:fit:40:40/f:png", with: "rs:fit:40:4%30/f:png")
            #expect(try await client.get(URL(string: reencoded)!).status == 403)
            let encodedAndSigned = server.url("rs:fit:40:4%30/f:png", origin.url("/img/photo.jpg"))
            let answer = try await client.get(encodedAndSigned)
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/png")
        }
    }

    @Test func headAnswersGETsHeadersWithoutTheBody() async throws {
        try await withOriginAndServer { origin, server in
            let url = server.url("rs:fit:40:40/f:png", origin.url("/img/photo.jpg"))
            let get = try await client.get(url)
            let head = try await client.get(url, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Type") == "image/png")
            #expect(head.header("ETag") == get.header("ETag"))
            #expect(head.header("Content-Length") == String(get.body.count))
        }
    }

    @Test func malformedOptionsAre400() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("rs:wobble:1:1", origin.url("/img/photo.jpg")))
            #expect(answer.status == 400)
            #expect(answer.errorCode == "bad_options")
            #expect(answer.header("Content-Type") == "application/json")
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aBadSignatureIs403AndFetchesNothing() async throws {
        try await withOriginAndServer { origin, server in
            let forged = try URLSigner(hexKey: "00ff", hexSalt: "")
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg"), signer: forged))
            #expect(answer.status == 403)
            #expect(answer.errorCode == "bad_signature")
            let unsigned = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg"), signer: nil))
            #expect(unsigned.status == 403)
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aMissingSourceIs404() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/missing")))
            #expect(answer.status == 404)
            #expect(answer.errorCode == "not_found")
        }
    }

    @Test func aSourceOverTheByteLimitIs422() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.fetchLimits.maximumBytes = 1 << 20 }) {
            origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/big")))
            #expect(answer.status == 422)
            #expect(answer.errorCode == "too_large")
        }
    }

    @Test func aSourceOverThePixelLimitIs422() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.maximumSourcePixels = 1_000_000 }) {
            origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/huge.png")))
            #expect(answer.status == 422)
            #expect(answer.errorCode == "too_large")
        }
    }

    @Test func aResultOverTheOutputByteLimitIs422() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.maximumOutputBytes = 100 }) {
            origin, server in
            let answer = try await client.get(server.url("f:png", origin.url("/img/photo.jpg")))
            #expect(answer.status == 422)
        }
    }

    @Test func anUndecodableSourceIs422() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/garbage")))
            #expect(answer.status == 422)
            #expect(answer.errorCode == "undecodable")
        }
    }

    @Test func aFailingSourceIs502() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/error")))
            #expect(answer.status == 502)
            #expect(answer.errorCode == "source_error")
        }
    }

    @Test func tooManyRedirectsIs502() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.fetchLimits.maximumRedirects = 3 }) {
            origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/loop")))
            #expect(answer.status == 502)
            #expect(origin.requests("/loop") == 4)
        }
    }

    @Test func aSlowSourceIs504() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.fetchLimits.timeout = 0.5 }) {
            origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/slow/3000/photo.jpg")))
            #expect(answer.status == 504)
            #expect(answer.errorCode == "timeout")
        }
    }

    @Test func workPastTheProcessingTimeLimitIs504() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.processingTimeout = 0.5 }) { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/slow/6000/photo.jpg")))
            // Had the work waited for the origin (6 s), it would have ended 200: the limit ended it.
            #expect(answer.status == 504)
            #expect(answer.errorCode == "timeout")
        }
    }

    @Test func aPathWithoutASignatureSegmentIsAJSON404() async throws {
        try await withOriginAndServer { _, server in
            let answer = try await client.get(URL(string: server.base + "/nothing")!)
            #expect(answer.status == 404)
            #expect(answer.errorCode == "not_found")
        }
    }

    @Test func anyOtherPathIsCheckedAsASignedURLFirst() async throws {
        try await withOriginAndServer { _, server in
            let answer = try await client.get(URL(string: server.base + "/nothing/here")!)
            #expect(answer.status == 403)
            #expect(answer.errorCode == "bad_signature")
        }
    }

    @Test func healthAnswersOK() async throws {
        try await withOriginAndServer { _, server in
            let answer = try await client.get(URL(string: server.base + "/health")!)
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "{\"status\":\"ok\"}")
        }
    }

    @Test func metricsCountRequestsByStatus() async throws {
        try await withOriginAndServer { origin, server in
            _ = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            _ = try await client.get(server.url("rs:fit:32:32", origin.url("/missing")))
            let answer = try await client.get(URL(string: server.base + "/metrics")!)
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 200)
            #expect(text.contains("comet_requests_total{status=\"200\"} 1"))
            #expect(text.contains("comet_requests_total{status=\"404\"} 1"))
            #expect(text.contains("comet_results_made_total 1"))
        }
    }
}
