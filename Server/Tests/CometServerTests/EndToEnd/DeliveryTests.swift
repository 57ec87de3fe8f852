import Comet
import CometServer
import Foundation
import Testing

/// The delivery options through the server: `cb`, `exp`, `fn`, `att`, `fq` and `mb`.
@Suite("Delivery options through the server", .timeLimit(.minutes(10)))
struct DeliveryTests {
    let client = HTTPClient()

    /// The answer to `options` for the origin's `path`, from the shared server.
    private func get(_ options: String, _ path: String = "/img/photo.jpg") async throws -> HTTPClient.Answer {
        let (origin, server) = try await SharedOriginAndServer.get()
        return try await client.get(server.url(options, origin.url(path)))
    }

    @Test func aCacheBusterChangesTheETagButNotTheImage() async throws {
        let plain = try await get("rs:fit:100:100/f:png")
        let busted = try await get("rs:fit:100:100/f:png/cb:v2")
        #expect(plain.status == 200 && busted.status == 200)
        #expect(plain.body == busted.body)
        #expect(plain.header("ETag") != busted.header("ETag"))
    }

    @Test func anExpiredURLIsA404BeforeAnyFetch() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let expired = Int(Date().timeIntervalSince1970) - 1
        let answer = try await client.get(server.url("rs:fit:100:100/exp:\(expired)", origin.url("/never/expired.jpg")))
        #expect(answer.status == 404 && answer.errorCode == "not_found")
        #expect(origin.requests("/never/expired.jpg") == 0)
    }

    @Test(arguments: ["exp:soon", "exp:+5", "exp:1.5", "exp:1:2"])
    func aMalformedExpiryIsA400(_ options: String) async throws {
        let answer = try await get(options, "/never/malformed-expiry.jpg")
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
    }

    @Test func anExpiryBoundsHowLongTheAnswerMayBeCached() async throws {
        let end = Int(Date().timeIntervalSince1970) + 100
        let answer = try await get("rs:fit:100:100/exp:\(end)")
        // The seconds left when the answer was made: between now's and the request's start.
        let leftNow = end - Int(Date().timeIntervalSince1970.rounded(.up))
        #expect(answer.status == 200)
        let maxAge = try #require(answer.header("Cache-Control")?.split(separator: "=").last.flatMap { Int($0) })
        #expect((leftNow...100).contains(maxAge))
        let later = try await get("rs:fit:100:100/exp:4102444800")
        #expect(later.header("Cache-Control") == "public, max-age=86400")
    }

    @Test func aFilenameNamesTheResultWithItsFormatsExtension() async throws {
        let answer = try await get("rs:fit:100:100/fn:cat-portrait/f:webp")
        #expect(answer.header("Content-Disposition") == "inline; filename=\"cat-portrait.webp\"")
    }

    @Test(.enabled(if: ColorFixture.isAvailable))
    func aSourceSentAsItIsIsNamedWithItsOwnFormatsExtension() async throws {
        let answer = try await get("skp:jxl/fn:scan", "/img/photo.jxl")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/jxl")
        #expect(answer.header("Content-Disposition") == "inline; filename=\"scan.jxl\"")
    }

    @Test func anAttachmentWithoutAFilenameIsNamedAfterTheSource() async throws {
        let answer = try await get("rs:fit:100:100/att:1/f:jpeg")
        #expect(answer.header("Content-Disposition") == "attachment; filename=\"photo.jpg\"")
    }

    @Test func aUTF8FilenameIsGivenInRFC8187sFormBesideAnASCIIFallback() async throws {
        let name = Base64URL.encode(Array("кот".utf8))
        let answer = try await get("rs:fit:100:100/fn:\(name):1/f:png")
        #expect(
            answer.header("Content-Disposition")
                == "inline; filename=\"______.png\"; filename*=UTF-8''%D0%BA%D0%BE%D1%82.png")
    }

    @Test func withoutFnOrAttThereIsNoContentDisposition() async throws {
        let answer = try await get("rs:fit:100:100/f:png")
        #expect(answer.status == 200 && answer.header("Content-Disposition") == nil)
    }

    @Test(arguments: ["fn:a@b", "fn:IiI:1", "fn:AAo:1", "att:2", "cb:a+b", "fq:png:50", "fq:jpeg:80:jpeg:70", "mb:x"])
    func aBadDeliveryValueIsA400(_ options: String) async throws {
        let answer = try await get(options, "/never/delivery.jpg")
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
    }

    @Test func aFormatQualityAppliesToItsFormatOnly() async throws {
        let atThirty = try await get("rs:fit:320:240/q:30/f:webp")
        let formatQuality = try await get("rs:fit:320:240/fq:webp:30:jpeg:90/f:webp")
        let otherFormat = try await get("rs:fit:320:240/fq:jpeg:30/f:webp")
        let plain = try await get("rs:fit:320:240/f:webp")
        #expect(formatQuality.body == atThirty.body)
        #expect(otherFormat.body == plain.body)
        #expect(atThirty.body.count < plain.body.count)
    }

    @Test(arguments: ["jpeg", "webp"])
    func maxBytesLowersTheQualityUntilTheResultFits(_ format: String) async throws {
        let plain = try await get("rs:fit:320:240/f:\(format)")
        let limit = plain.body.count / 2
        let bounded = try await get("rs:fit:320:240/mb:\(limit)/f:\(format)")
        #expect(bounded.status == 200)
        #expect(bounded.body.count <= limit, "\(bounded.body.count) > \(limit)")
        let image = try ImageDecoders.decode(Data(bounded.body)).image
        #expect(image.width == 320 && image.height == 240)
    }

    @Test func maxBytesLeavesPNGAlone() async throws {
        let plain = try await get("rs:fit:100:100/f:png")
        let bounded = try await get("rs:fit:100:100/mb:100/f:png")
        #expect(bounded.status == 200 && bounded.body == plain.body)
    }
}
