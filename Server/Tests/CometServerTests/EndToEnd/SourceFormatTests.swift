import Comet
import CometServer
import Foundation
import Testing

/// The output format of a URL with neither an extension nor `f`, and an `Accept` that names no
/// modern format: imgproxy's choice with its default preferred formats (JPEG, PNG, GIF): the
/// source's format when it is one of them, else JPEG for an opaque result and PNG for one with
/// transparency (an animation: GIF).
@Suite("The source's format kept through the server", .serialized, .timeLimit(.minutes(10)))
struct SourceFormatTests {
    let client = HTTPClient()

    /// The answer to `options` for the origin's `/made/{name}`, with `headers`.
    private func get(_ options: String, _ name: String, headers: [String: String] = [:]) async throws
        -> HTTPClient.Answer
    {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options, origin.url("/made/" + name)), headers: headers)
        #expect(answer.status == 200, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
        return answer
    }

    @Test(arguments: [
        ("200x100.jpg", "image/jpeg"), ("200x100.png", "image/png"), ("200x100.gif", "image/gif"),
        ("200x100-alpha.png", "image/png"), ("200x100-alpha.gif", "image/gif"),
    ])
    func aPreferredSourceFormatIsKept(_ name: String, _ type: String) async throws {
        let answer = try await get("rs:fit:100:100", name, headers: ["Accept": "*/*"])
        #expect(answer.header("Content-Type") == type, "\(name)")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == 100 && image.height == 50)
    }

    @Test(arguments: [
        ("200x100.webp", "image/jpeg"), ("200x100-alpha.webp", "image/png"), ("200x100.avif", "image/jpeg"),
        ("200x100-alpha.avif", "image/png"),
    ])
    func anotherSourceFormatGivesJPEGOrPNGByTransparency(_ name: String, _ type: String) async throws {
        let answer = try await get("rs:fit:100:100", name)
        #expect(answer.header("Content-Type") == type, "\(name)")
        #expect(type == "image/png" ? Magic.isPNG(answer.body) : Magic.isJPEG(answer.body))
    }

    @Test func aSourceWithNoOptionsKeepsItsFormat() async throws {
        let answer = try await get("", "120x80.png")
        #expect(answer.header("Content-Type") == "image/png" && Magic.isPNG(answer.body))
    }

    @Test func acceptStillChoosesWebPAndTheAnswerVariesOnIt() async throws {
        let answer = try await get("rs:fit:100:100", "200x100.png", headers: ["Accept": "image/webp,*/*"])
        #expect(answer.header("Content-Type") == "image/webp" && Magic.isWebP(answer.body))
        #expect(answer.header("Vary") == "Accept")
        let plain = try await get("rs:fit:100:100", "200x100.png")
        #expect(plain.header("Content-Type") == "image/png" && plain.header("Vary") == "Accept")
        #expect(plain.header("ETag") != answer.header("ETag"))
    }

    @Test func aStoredResultIsNeverServedForASourceOfAnotherFormat() async throws {
        let options = "rs:fit:64:64/q:70"
        let png = try await get(options, "160x90.png")
        let pngAgain = try await get(options, "160x90.png")
        let jpeg = try await get(options, "160x90.jpg")
        #expect(png.header("Content-Type") == "image/png" && pngAgain.header("Content-Type") == "image/png")
        #expect(pngAgain.header("X-Cache") == "HIT" && pngAgain.header("ETag") == png.header("ETag"))
        #expect(jpeg.header("Content-Type") == "image/jpeg" && jpeg.header("X-Cache") == "MISS")
        #expect(Magic.isJPEG(jpeg.body) && jpeg.header("ETag") != png.header("ETag"))
    }

    @Test(.enabled(if: AnimationOrigin.isAvailable))
    func anAnimatedGIFStaysAnAnimatedGIF() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let answer = try await client.get(server.url("rs:fit:58:50", origin.url("/gif/moon_impact.gif")))
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/gif")
        let decoded = try ImageDecoders.decode(Data(answer.body), options: ImageDecodingOptions(decodesAnimation: true))
        let animation = try #require(decoded.animation)
        #expect(animation.frames.count == 14 && decoded.image.width == 58 && decoded.image.height == 50)
    }

    @Test(.enabled(if: AnimationOrigin.isAvailable))
    func anAnimatedWebPBecomesAnAnimatedGIF() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let answer = try await client.get(server.url("rs:fit:58:50", origin.url("/moon.webp")))
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/gif")
        let decoded = try ImageDecoders.decode(Data(answer.body), options: ImageDecodingOptions(decodesAnimation: true))
        #expect((decoded.animation?.frames.count ?? 0) > 1)
    }
}
