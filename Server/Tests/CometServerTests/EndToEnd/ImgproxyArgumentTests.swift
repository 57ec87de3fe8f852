import Comet
import CometServer
import Foundation
import Testing

/// imgproxy's own spellings through the server: arguments left empty or out, `bg` as three
/// channels, far-future and non-positive `exp`, and imgproxy's names `fl` and `ext`.
@Suite("imgproxy's argument spellings through the server", .timeLimit(.minutes(10)))
struct ImgproxyArgumentTests {
    let client = HTTPClient()

    private func get(_ options: String, _ path: String = "/img/photo.jpg") async throws -> HTTPClient.Answer {
        let (origin, server) = try await SharedOriginAndServer.get()
        return try await client.get(server.url(options, origin.url(path)))
    }

    private func image(_ answer: HTTPClient.Answer) throws -> Image {
        try ImageDecoders.decode(Data(answer.body)).image
    }

    @Test(arguments: [
        ("rs:fill:100:100/g:no::5", 100, 100), ("rs:fill:100:100/g:no:5", 100, 100), ("c:50:50:ce:10", 50, 50),
        ("rs:fit:300:300/ex:1:no::5", 300, 300), ("rs:fit:300:100/exar:1:ea:5", 300, 100),
        ("rs:fit:300:100/extend_ar:1", 300, 100), ("pd:10::20", 660, 510),
        ("rs:fill:100:100:::", 100, 100), ("c:320", 320, 480),
    ])
    func anArgumentLeftEmptyOrOutIsServed(_ options: String, _ width: Int, _ height: Int) async throws {
        let answer = try await get(options + "/f:png")
        #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
        let result = try image(answer)
        #expect(result.width == width && result.height == height, "\(options): \(result.width)×\(result.height)")
    }

    @Test(arguments: ["wm:1:no:50", "wm:1:re:::0.5"])
    func aWatermarkWithArgumentsLeftEmptyOrOutIsServed(_ options: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.getWatermarked()
        let answer = try await client.get(server.url("rs:fit:200:200/\(options)/f:png", origin.url("/img/photo.jpg")))
        #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test func threeChannelsAreTheBackground() async throws {
        let answer = try await get("bg:255:0:0/f:jpeg", "/img/badge.png")
        #expect(answer.status == 200)
        let corner = try image(answer).pixel(x: 1, y: 1)
        #expect(corner.red > 245 && corner.green < 10 && corner.blue < 10, "\(corner)")
    }

    @Test func anEmptyBackgroundIsTheDefaultAgain() async throws {
        let reset = try await get("bg:255:0:0/bg:/f:jpeg", "/img/badge.png")
        let plain = try await get("f:jpeg", "/img/badge.png")
        #expect(reset.status == 200 && reset.header("ETag") == plain.header("ETag"))
    }

    @Test func aFarFutureExpiryIsServed() async throws {
        let answer = try await get("rs:fit:50:50/exp:32503669200")
        #expect(answer.status == 200)
        #expect(answer.header("Cache-Control") == "public, max-age=86400")
    }

    @Test(arguments: ["exp:0", "exp:-5"])
    func aNonPositiveExpiryIsNoEnd(_ options: String) async throws {
        let answer = try await get("rs:fit:50:50/\(options)")
        let plain = try await get("rs:fit:50:50")
        #expect(answer.status == 200 && answer.header("ETag") == plain.header("ETag"))
    }

    @Test func flMirrorsTheSource() async throws {
        // The photo's red channel rises from its left edge (0) to its right (255).
        let answer = try await get("fl:1/f:png")
        #expect(answer.status == 200)
        let result = try image(answer)
        #expect(result.pixel(x: 0, y: 240).red > 240 && result.pixel(x: 639, y: 240).red < 15)
    }

    @Test func extIsTheFormat() async throws {
        let answer = try await get("rs:fit:50:50/ext:png")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
    }
}
