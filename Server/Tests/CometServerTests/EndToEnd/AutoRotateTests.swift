import Comet
import CometServer
import Foundation
import Testing

/// `ar` through the server: by default (`ar:1`) the source's EXIF orientation is applied, so a
/// source stored turned comes out upright, its sides swapped for orientations 5 to 8; `ar:0`
/// keeps the pixels as stored. For JPEG (the corpus's `exif-orientation` photos) and for PNG's
/// `eXIf` chunk (``OrientedPNG``).
@Suite("EXIF auto-rotation through the server", .timeLimit(.minutes(10)))
struct AutoRotateTests {
    let client = HTTPClient()

    /// The width and height of the result of `options` for the origin's `path`.
    private func size(_ options: String, _ path: String) async throws -> [Int] {
        let (origin, server) = try await SharedOriginAndServer.get()
        let answer = try await client.get(server.url(options, origin.url(path)))
        #expect(answer.status == 200, "\(options) \(path): \(String(decoding: answer.body, as: UTF8.self))")
        let image = try ImageDecoders.decode(Data(answer.body)).image
        return [image.width, image.height]
    }

    /// The corpus photo of `orientation`'s stored width and height (its orientation not applied).
    private func storedSize(ofPhoto orientation: Int) throws -> [Int] {
        let bytes = try #require(ServerTestCorpus.bytes("exif-orientation/Landscape_\(orientation).jpg"))
        let stored = try ImageDecoders.decode(Data(bytes), options: ImageDecodingOptions(appliesOrientation: false))
        return [stored.image.width, stored.image.height]
    }

    @Test(.enabled(if: ServerTestCorpus.isAvailable), arguments: 1...8)
    func aJPEGComesOutUprightByDefault(_ orientation: Int) async throws {
        let stored = try storedSize(ofPhoto: orientation)
        let upright = orientation >= 5 ? [stored[1], stored[0]] : stored
        let path = "/corpus/exif-orientation/Landscape_\(orientation).jpg"
        #expect(try await size("f:png", path) == upright)
        #expect(try await size("ar:1/f:png", path) == upright)
    }

    @Test(.enabled(if: ServerTestCorpus.isAvailable), arguments: 1...8)
    func aJPEGKeepsItsStoredPixelsWithAr0(_ orientation: Int) async throws {
        let path = "/corpus/exif-orientation/Landscape_\(orientation).jpg"
        #expect(try await size("ar:0/f:png", path) == storedSize(ofPhoto: orientation))
    }

    @Test(arguments: 1...8)
    func aPNGsEXIfOrientationIsAppliedUnlessAr0(_ orientation: Int) async throws {
        let path = "/oriented/\(orientation).png"
        #expect(try await size("f:png", path) == (orientation >= 5 ? [20, 40] : [40, 20]))
        #expect(try await size("auto_rotate:0/f:png", path) == [40, 20])
    }

    @Test func ar0KeepsTheStoredPixelsWhereTheyAre() async throws {
        // Orientation 3 is a half turn: applied, the blue right half comes out on the left.
        let (origin, server) = try await SharedOriginAndServer.get()
        for (options, leftIsRed) in [("f:png", false), ("ar:0/f:png", true)] {
            let answer = try await client.get(server.url(options, origin.url("/oriented/3.png")))
            let pixel = try ImageDecoders.decode(Data(answer.body)).image.pixel(x: 2, y: 10)
            #expect((pixel.red > 200) == leftIsRed && (pixel.blue > 200) == !leftIsRed, "\(options): \(pixel)")
        }
    }

    @Test func ar0AndAr1AreDifferentResults() async throws {
        let (origin, server) = try await SharedOriginAndServer.get()
        let source = origin.url("/oriented/6.png")
        let turned = try await client.get(server.url("rs:fit:30:30/f:png", source))
        let stored = try await client.get(server.url("rs:fit:30:30/ar:0/f:png", source))
        #expect(turned.status == 200 && stored.status == 200)
        #expect(turned.header("ETag") != stored.header("ETag"))
    }
}
