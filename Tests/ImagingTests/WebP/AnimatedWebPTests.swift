import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// Animated WebP: written with libwebpmux's encoder, read back through the same animated type as GIF.
@Suite("Animated WebP")
struct AnimatedWebPTests {
    static let colours: [RGBA8] = [
        RGBA8(red: 255, green: 0, blue: 0, alpha: 255), RGBA8(red: 0, green: 0, blue: 255, alpha: 255),
        RGBA8(red: 0, green: 255, blue: 0, alpha: 128),
    ]

    static func animation() -> AnimatedImage {
        let frames = colours.enumerated().map { index, colour in
            AnimatedImage.Frame(image: Image(width: 12, height: 10, color: colour), duration: Double(index + 1) / 10)
        }
        return AnimatedImage(type: .webp, frames: frames, loopCount: 3, data: Data())
    }

    static func decodeAll(_ data: Data) throws -> DecodedImage {
        try WebPDecoder().decode(data, options: ImageDecodingOptions(decodesAnimation: true))
    }

    @Test func losslessAnimationRoundTripsFramesDurationsAndLoopCount() throws {
        let data = try ImageEncoders.animatedWebP(Self.animation(), lossless: true)
        let animation = try #require(Self.decodeAll(data).animation)
        #expect(animation.type == .webp && animation.data == data)
        #expect(animation.frames.map { $0.image.pixel(x: 5, y: 5) } == Self.colours)
        #expect(animation.frames.map(\.duration) == [0.1, 0.2, 0.3])
        #expect(animation.loopCount == 3)
    }

    @Test func withoutTheOptionTheFirstFrameIsTheImage() throws {
        let decoded = try WebPDecoder().decode(ImageEncoders.animatedWebP(Self.animation(), lossless: true))
        #expect(decoded.animation == nil)
        #expect(decoded.image.pixel(x: 0, y: 0) == Self.colours[0])
    }

    @Test func tooManyFramesAreTooLargeBeforeDecoding() throws {
        let data = try ImageEncoders.animatedWebP(Self.animation(), lossless: true)
        var options = ImageDecodingOptions(decodesAnimation: true)
        options.limits.maxFrameCount = 2
        #expect {
            _ = try WebPDecoder().decode(data, options: options)
        } throws: { error in
            guard case .tooLarge(12, 10, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("frame count")
        }
    }

    @Test func framesOfDifferentSizesAreRefused() throws {
        var animation = Self.animation()
        animation.frames[1].image = Image(width: 3, height: 3, color: Self.colours[1])
        #expect(throws: ImageEncodingError.self) { _ = try ImageEncoders.animatedWebP(animation) }
    }

    @Test func aTruncatedAnimationIsAnError() throws {
        let data = try ImageEncoders.animatedWebP(Self.animation(), lossless: true)
        #expect(throws: ImageDecodingError.self) { _ = try Self.decodeAll(data.prefix(data.count - 20)) }
    }
}
