import Comet
import CometServer
import Foundation
import Testing

/// imgproxy's security options through the server: refused with a 403 unless the server allows
/// them (`--allow-security-options`), and then each limiting its request below the server's
/// limits: a source or a result the server's own limits allow is refused (422) or, for `mrd`,
/// scaled down.
@Suite("The security options through the server", .timeLimit(.minutes(10)))
struct SecurityOptionTests {
    let client = HTTPClient()

    /// The answer to `options` for the origin's `path`, from the server that allows the options.
    private func get(_ options: String, _ path: String = "/img/photo.jpg") async throws -> HTTPClient.Answer {
        let (origin, server) = try await SharedOriginAndServer.getAllowingSecurityOptions()
        return try await client.get(server.url(options, origin.url(path)))
    }

    /// The answer to `options` for `path` on the animation origin, from the same server.
    private func getAnimation(_ options: String, _ path: String) async throws -> HTTPClient.Answer {
        let (_, server) = try await SharedOriginAndServer.getAllowingSecurityOptions()
        let origin = try await AnimationOrigin.get()
        return try await client.get(server.url(options, origin.url(path)))
    }

    @Test(arguments: ["msr:1", "msfs:1000", "maf:2", "mafr:1", "mrd:100"])
    func aServerThatDoesNotAllowThemAnswers403BeforeAnyFetch(_ option: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let path = "/never/security-\(option.prefix { $0 != ":" }).jpg"
        let answer = try await client.get(server.url(option, origin.url(path)))
        #expect(answer.status == 403 && answer.errorCode == "security_options_refused")
        #expect(origin.requests(path) == 0)
    }

    @Test func aSourceOfMoreBytesThanMsfsIsA422() async throws {
        let photoBytes = OriginServer.photo.count
        #expect(try await get("msfs:\(photoBytes)").status == 200)
        let answer = try await get("msfs:\(photoBytes - 1)")
        #expect(answer.status == 422 && answer.errorCode == "too_large")
    }

    @Test func aSourceOfMorePixelsThanMsrIsA422() async throws {
        // The photo is 640×480, 0.3072 megapixels.
        #expect(try await get("msr:0.3072").status == 200)
        let answer = try await get("msr:0.3071")
        #expect(answer.status == 422 && answer.errorCode == "too_large")
    }

    @Test func msrIsCheckedFromTheHeaderBeforeAnyDecode() async throws {
        // huge.png declares 16 megapixels; a decode of it would take 64 MiB.
        let answer = try await get("msr:1", "/huge.png")
        #expect(answer.status == 422 && answer.errorCode == "too_large")
    }

    @Test(.enabled(if: AnimationOrigin.isAvailable))
    func anAnimationOfMoreFramesThanMafIsA422() async throws {
        // moon_impact.gif has 14 frames.
        #expect(try await getAnimation("f:webp/maf:14", "/gif/moon_impact.gif").status == 200)
        let answer = try await getAnimation("f:webp/maf:13", "/gif/moon_impact.gif")
        #expect(answer.status == 422 && answer.errorCode == "too_large")
    }

    @Test(.enabled(if: AnimationOrigin.isAvailable))
    func maf1KeepsTheFirstFrameOnly() async throws {
        let answer = try await getAnimation("f:webp/maf:1", "/gif/moon_impact.gif")
        #expect(answer.status == 200)
        let decoded = try ImageDecoders.decode(Data(answer.body), options: ImageDecodingOptions(decodesAnimation: true))
        #expect((decoded.animation?.frames.count ?? 1) == 1)
    }

    @Test(.enabled(if: AnimationOrigin.isAvailable))
    func anAnimationWhoseFramesHaveMorePixelsThanMafrIsA422() async throws {
        // Its frames are 116×100, 11 600 pixels.
        #expect(try await getAnimation("f:webp/mafr:0.0116", "/gif/moon_impact.gif").status == 200)
        let answer = try await getAnimation("f:webp/mafr:0.0115", "/gif/moon_impact.gif")
        #expect(answer.status == 422 && answer.errorCode == "too_large")
    }

    @Test(arguments: [("mrd:100", 100, 75), ("mrd:1000", 640, 480)])
    func mrdScalesALargerResultDownToItsLongestSide(_ options: String, _ width: Int, _ height: Int) async throws {
        let answer = try await get(options + "/f:png")
        #expect(answer.status == 200)
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == width && image.height == height, "\(options): \(image.width)×\(image.height)")
    }

    @Test func mrdBoundsTheResultWithItsPadding() async throws {
        // 300×225 padded by 10 on each side is 320×245, scaled down to 100 wide.
        let answer = try await get("mrd:100/rs:fit:300:300/pd:10/f:png")
        #expect(answer.status == 200)
        let image = try ImageDecoders.decode(Data(answer.body)).image
        #expect(image.width == 100 && (76...77).contains(image.height), "\(image.width)×\(image.height)")
    }
}
