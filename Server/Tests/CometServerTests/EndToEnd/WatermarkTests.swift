import Comet
import CometServer
import Foundation
import Testing

/// Where and how `wm` draws the server's watermark (``SharedOriginAndServer/watermark``: 20×10,
/// the left half opaque blue, the right half red at alpha 128) over the 160×120 fit of the
/// origin's photo, through a server started with it. Expected pixels are computed here from the
/// same result without `wm`.
@Suite("Watermarks through the server", .timeLimit(.minutes(10)))
struct WatermarkTests {
    let client = HTTPClient()

    private static let blue = RGBA8(red: 0, green: 0, blue: 255)

    /// The result of `options` (as PNG) from the watermarked server.
    private func result(_ options: String) async throws -> Image {
        try await watermarkedResult(options, client: client)
    }

    /// The 160×120 fit with `watermark`, and without it.
    private func marked(_ watermark: String) async throws -> (marked: Image, plain: Image) {
        (try await result("rs:fit:160:120/" + watermark), try await result("rs:fit:160:120"))
    }

    @Test func anOpaqueMarkCoversThePixelsAtItsCompassPoint() async throws {
        let (marked, plain) = try await marked("wm:1:nowe")
        #expect(marked.width == 160 && marked.height == 120)
        #expect(marked.pixel(x: 0, y: 0) == Self.blue && marked.pixel(x: 9, y: 9) == Self.blue)
        #expect(marked.pixel(x: 20, y: 0) == plain.pixel(x: 20, y: 0))
        #expect(marked.pixel(x: 0, y: 10) == plain.pixel(x: 0, y: 10))
    }

    @Test func aTranslucentMarkIsCompositedOverThePixelsWithPremultipliedAlpha() async throws {
        let (marked, plain) = try await marked("wm:1:nowe")
        let alpha = 128.0 / 255
        for (x, y) in [(10, 0), (15, 5), (19, 9)] {
            let under = plain.pixel(x: x, y: y)
            let made = marked.pixel(x: x, y: y)
            #expect(abs(Double(made.red) - (255 * alpha + Double(under.red) * (1 - alpha))) <= 1, "\(made)")
            #expect(abs(Double(made.green) - Double(under.green) * (1 - alpha)) <= 1, "\(made)")
            #expect(abs(Double(made.blue) - Double(under.blue) * (1 - alpha)) <= 1, "\(made)")
        }
    }

    @Test func opacityScalesTheMarksAlpha() async throws {
        let (marked, plain) = try await marked("wm:0.5:nowe")
        let under = plain.pixel(x: 5, y: 5)
        let made = marked.pixel(x: 5, y: 5)
        #expect(abs(Double(made.red) - Double(under.red) * 0.5) <= 1, "\(made)")
        #expect(abs(Double(made.blue) - (127.5 + Double(under.blue) * 0.5)) <= 1, "\(made)")
    }

    @Test func pixelOffsetsMoveTheMarkInwardFromItsEdges() async throws {
        let (marked, plain) = try await marked("wm:1:soea:10:5")
        // The mark's top left corner is at (160 − 10 − 20, 120 − 5 − 10).
        #expect(marked.pixel(x: 130, y: 105) == Self.blue && marked.pixel(x: 139, y: 114) == Self.blue)
        #expect(marked.pixel(x: 129, y: 105) == plain.pixel(x: 129, y: 105))
        #expect(marked.pixel(x: 130, y: 115) == plain.pixel(x: 130, y: 115))
    }

    @Test func offsetsBelowOneAreFractionsOfTheResultsSides() async throws {
        let (marked, plain) = try await marked("wm:1:nowe:0.1:0.25")
        #expect(marked.pixel(x: 16, y: 30) == Self.blue)
        #expect(marked.pixel(x: 15, y: 30) == plain.pixel(x: 15, y: 30))
        #expect(marked.pixel(x: 16, y: 29) == plain.pixel(x: 16, y: 29))
    }

    @Test func tiledMarksRepeatWithTheirGaps() async throws {
        let (marked, plain) = try await marked("wm:1:re:5:0")
        #expect(marked.pixel(x: 0, y: 0) == Self.blue && marked.pixel(x: 25, y: 0) == Self.blue)
        #expect(marked.pixel(x: 22, y: 0) == plain.pixel(x: 22, y: 0))
        #expect(marked.pixel(x: 0, y: 10) == Self.blue && marked.pixel(x: 150, y: 110) == Self.blue)
    }

    @Test func aScaledMarkFitsThatFractionOfTheResult() async throws {
        // 20×10 fitted into 80×60 is 80×40, centred: x 40..<120, y 40..<80.
        let (marked, plain) = try await marked("wm:1:ce:0:0:0.5")
        // Inside the blue half, away from the red half that the enlarging filter reaches.
        for (x, y) in [(41, 41), (60, 60), (41, 78)] {
            let pixel = marked.pixel(x: x, y: y)
            #expect(pixel.red <= 2 && pixel.green <= 2 && pixel.blue >= 253, "\(x)/ \(y): \(pixel)")
        }
        #expect(marked.pixel(x: 41, y: 38) == plain.pixel(x: 41, y: 38))
        #expect(marked.pixel(x: 38, y: 41) == plain.pixel(x: 38, y: 41))
    }

    @Test func theDevicePixelRatioMultipliesPixelOffsets() async throws {
        let marked = try await result("rs:fit:80:60/dpr:2/wm:1:nowe:5:5")
        #expect(marked.width == 160 && marked.height == 120)
        #expect(marked.pixel(x: 10, y: 10) == Self.blue)
        #expect(marked.pixel(x: 9, y: 10) != Self.blue && marked.pixel(x: 10, y: 9) != Self.blue)
    }

    @Test func theMarkIsDrawnAfterThePadding() async throws {
        let marked = try await result("rs:fit:160:120/pd:10/wm:1:nowe")
        #expect(marked.width == 180 && marked.height == 140)
        #expect(marked.pixel(x: 0, y: 0) == Self.blue)
    }

    @Test func aMarkedResultHasItsOwnETag() async throws {
        let (origin, server) = try await SharedOriginAndServer.getWatermarked()
        let source = origin.url("/img/photo.jpg")
        let plain = try await client.get(server.url("rs:fit:160:120/f:png", source))
        let marked = try await client.get(server.url("rs:fit:160:120/wm:1/f:png", source))
        #expect(plain.header("ETag") != nil && plain.header("ETag") != marked.header("ETag"))
    }

    @Test func aServerWithoutAWatermarkRefusesWmBeforeAnyFetch() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url("wm:1", origin.url("/never/watermark.jpg")))
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
        #expect(origin.requests("/never/watermark.jpg") == 0)
    }

    @Test(arguments: ["wm:2", "wm:1:up", "wm:1:soea:10:0:0:1", "wm:1:re:-5:0", "wm:1:ce:0:0:2", "wm:x"])
    func aBadWatermarkValueIsA400NamingWm(_ options: String) async throws {
        let (origin, server) = try await SharedOriginAndServer.getWatermarked()
        let path = "/never/wm-\(options.utf8.map { String($0) }.joined()).jpg"
        let answer = try await client.get(server.url(options, origin.url(path)))
        #expect(answer.status == 400 && answer.errorCode == "bad_options")
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: [String: Any]]
        #expect((object?["error"]?["message"] as? String)?.hasPrefix("wm") == true)
        #expect(origin.requests(path) == 0)
    }
}

/// `dpr` on a result that is not resized: the ratio scales it and the mark's pixel offsets, as
/// far as imgproxy lets it (never enlarging without `el`).
@Suite("Watermarks and the device pixel ratio through the server", .timeLimit(.minutes(10)))
struct WatermarkPixelRatioTests {
    let client = HTTPClient()

    private static let blue = RGBA8(red: 0, green: 0, blue: 255)

    private func result(_ options: String) async throws -> Image {
        try await watermarkedResult(options, client: client)
    }

    @Test func theRatioScalesAnUnresizedCropAndTheMarksOffsets() async throws {
        let marked = try await result("c:160:120:nowe/dpr:0.5/wm:1:nowe:10:10")
        #expect(marked.width == 80 && marked.height == 60)
        #expect(marked.pixel(x: 5, y: 5) == Self.blue && marked.pixel(x: 14, y: 14) == Self.blue)
        #expect(marked.pixel(x: 4, y: 5) != Self.blue && marked.pixel(x: 5, y: 4) != Self.blue)
    }

    @Test func aRatioThatWouldEnlargeIsHeldToOneForTheOffsetsToo() async throws {
        let marked = try await result("rs:fit:1000:1000/dpr:2/wm:1:nowe:5:5")
        #expect(marked.width == 640 && marked.height == 480)
        #expect(marked.pixel(x: 5, y: 5) == Self.blue && marked.pixel(x: 4, y: 5) != Self.blue)
    }
}

/// The result of `options` (as PNG) of the origin's photo from the watermarked server.
private func watermarkedResult(_ options: String, client: HTTPClient) async throws -> Image {
    let (origin, server) = try await SharedOriginAndServer.getWatermarked()
    let answer = try await client.get(server.url(options + "/f:png", origin.url("/img/photo.jpg")))
    #expect(answer.status == 200, "\(options): \(String(decoding: answer.body, as: UTF8.self))")
    return try ImageDecoders.decode(Data(answer.body)).image
}
