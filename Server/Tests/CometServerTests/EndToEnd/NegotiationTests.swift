import CometServer
import Foundation
import Testing

/// Output formats: from Accept, from the URL, and the JPEG/PNG fallback.
@Suite("Format negotiation", .timeLimit(.minutes(10)))
struct NegotiationTests {
    let client = HTTPClient()

    @Test func acceptWebPGetsWebPThatVariesOnAccept() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(
                server.url("rs:fit:64:64", origin.url("/img/photo.jpg")),
                headers: ["Accept": "image/webp,image/*,*/*;q=0.8"])
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/webp")
            #expect(Magic.isWebP(answer.body))
            #expect(answer.header("Vary") == "Accept")
        }
    }

    @Test func acceptAVIFGetsAVIF() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(
                server.url("rs:fit:64:64", origin.url("/img/photo.jpg")),
                headers: ["Accept": "image/avif,image/webp,*/*"])
            #expect(answer.header("Content-Type") == "image/avif")
            #expect(Magic.isAVIF(answer.body))
        }
    }

    @Test func withoutAModernFormatOpaqueImagesGetJPEGAndTransparentOnesPNG() async throws {
        try await withOriginAndServer { origin, server in
            let photo = try await client.get(
                server.url("rs:fit:64:64", origin.url("/img/photo.jpg")), headers: ["Accept": "*/*"])
            #expect(Magic.isJPEG(photo.body))
            let badge = try await client.get(
                server.url("rs:fit:32:32", origin.url("/img/badge.png")), headers: ["Accept": "*/*"])
            #expect(Magic.isPNG(badge.body))
            #expect(badge.header("Vary") == "Accept")
        }
    }

    @Test func aFormatInTheURLWinsAndDoesNotVary() async throws {
        try await withOriginAndServer { origin, server in
            let byOption = try await client.get(
                server.url("rs:fit:64:64/f:png", origin.url("/img/photo.jpg")),
                headers: ["Accept": "image/webp"])
            #expect(Magic.isPNG(byOption.body))
            #expect(byOption.header("Vary") == nil)
            let byExtension = try await client.get(
                server.url("rs:fit:64:64", origin.url("/img/photo.jpg"), fileExtension: "webp"))
            #expect(Magic.isWebP(byExtension.body))
        }
    }

    /// As imgproxy, which reads the extension after the options.
    @Test func theExtensionWinsOverAFormatOption() async throws {
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("f:png", origin.url("/img/photo.jpg"), fileExtension: "webp"))
            #expect(answer.status == 200 && Magic.isWebP(answer.body))
        }
    }
}
