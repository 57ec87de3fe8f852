import Comet
import CometServer
import Foundation
import Testing

/// A transparent source asked for as JPEG (no alpha channel) is laid on a background colour:
/// white unless `bg:` names another; with `bg:`, every format is laid on it, as in imgproxy.
@Suite("Transparency and backgrounds", .timeLimit(.minutes(10)))
struct TransparencyTests {
    let client = HTTPClient()

    /// The badge's corners are transparent.
    func corner(of options: String) async throws -> RGBA8 {
        var body: [UInt8] = []
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url(options, origin.url("/img/badge.png")))
            #expect(answer.status == 200)
            body = answer.body
        }
        #expect(Magic.isJPEG(body))
        return try JPEGDecoder().decode(Data(body)).image.pixel(x: 1, y: 1)
    }

    @Test func aTransparentSourceAsJPEGIsLaidOnWhite() async throws {
        let pixel = try await corner(of: "f:jpeg")
        #expect(pixel.red > 245 && pixel.green > 245 && pixel.blue > 245, "\(pixel)")
    }

    /// imgproxy flattens onto a background asked for in every format, alpha or not.
    @Test func bgFlattensAPNGResultToo() async throws {
        var body: [UInt8] = []
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("f:png/bg:0000ff", origin.url("/img/badge.png")))
            #expect(answer.status == 200)
            body = answer.body
        }
        #expect(Magic.isPNG(body))
        let pixel = try PNGDecoder().decode(Data(body)).image.pixel(x: 1, y: 1)
        #expect(pixel.alpha == 255 && pixel.red < 10 && pixel.green < 10 && pixel.blue > 245, "\(pixel)")
    }

    @Test func aPNGResultWithoutBgKeepsItsTransparency() async throws {
        var body: [UInt8] = []
        try await withOriginAndServer { origin, server in
            let answer = try await client.get(server.url("f:png", origin.url("/img/badge.png")))
            #expect(answer.status == 200)
            body = answer.body
        }
        #expect(try PNGDecoder().decode(Data(body)).image.pixel(x: 1, y: 1).alpha == 0)
    }

    @Test func bgChoosesTheColourItIsLaidOn() async throws {
        let pixel = try await corner(of: "f:jpeg/bg:0000ff")
        #expect(pixel.red < 10 && pixel.green < 10 && pixel.blue > 245, "\(pixel)")
    }
}
