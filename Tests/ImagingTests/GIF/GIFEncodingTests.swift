import Foundation
import Testing
@testable import Imaging

@Suite("GIF encoding")
struct GIFEncodingTests {
    static let cubeColours = [
        RGBA8(red: 255, green: 0, blue: 0, alpha: 255), RGBA8(red: 0, green: 51, blue: 204, alpha: 255),
        RGBA8(red: 255, green: 255, blue: 255, alpha: 255),
    ]

    static func animation(loopCount: Int) -> AnimatedImage {
        let frames = cubeColours.enumerated().map { index, colour in
            AnimatedImage.Frame(image: Image(width: 9, height: 7, color: colour), duration: Double(index + 1) * 0.05)
        }
        return AnimatedImage(type: .gif, frames: frames, loopCount: loopCount, data: Data())
    }

    @Test func cubeColoursDelaysAndFramesRoundTripExactly() throws {
        let data = try ImageEncoders.gif(Self.animation(loopCount: 0))
        let animation = try #require(
            GIFDecoder().decode(data, options: ImageDecodingOptions(decodesAnimation: true)).animation)
        #expect(animation.frames.map { $0.image.pixel(x: 4, y: 3) } == Self.cubeColours)
        #expect(animation.frames.map(\.duration) == [0.05, 0.1, 0.15])
        #expect(animation.loopCount == 0)
    }

    @Test(arguments: [1, 2, 5])
    func playCountsRoundTrip(_ plays: Int) throws {
        let data = try ImageEncoders.gif(Self.animation(loopCount: plays))
        #expect(
            try GIFDecoder().decode(data, options: ImageDecodingOptions(decodesAnimation: true)).animation?.loopCount
                == plays)
    }

    @Test func transparentPixelsStayTransparent() throws {
        let image = Image(width: 4, height: 4, color: RGBA8(red: 10, green: 200, blue: 30, alpha: 0))
        let data = try ImageEncoders.gif(
            AnimatedImage(type: .gif, frames: [.init(image: image, duration: 0)], loopCount: 1, data: Data()))
        #expect(try GIFDecoder().decode(data).image.pixel(x: 1, y: 1).alpha == 0)
    }

    @Test func aPhotoStaysCloseAfterDithering() throws {
        let photo = WebPEncodingTests.photo(width: 64, height: 48, alpha: false)
        let data = try ImageEncoders.gif(
            AnimatedImage(type: .gif, frames: [.init(image: photo, duration: 0)], loopCount: 1, data: Data()))
        #expect(WebPEncodingTests.psnr(photo, try GIFDecoder().decode(data).image) > 20)
    }
}
