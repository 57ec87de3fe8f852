import CometTestSupport
import Foundation
import Testing

@testable import Imaging

/// Encoders: sRGB images are written untagged; an image that carries a profile is written with
/// it, in every format that has a place for one, so a round trip keeps the colour.
struct ColorRoundTripTests {
    /// A photo-like gradient tagged Display P3.
    static let p3Image: Image = {
        var bytes = [UInt8]()
        for y in 0..<48 {
            for x in 0..<64 { bytes += [UInt8(x * 4), UInt8(255 - y * 5), UInt8((x * y) & 255), 255] }
        }
        return Image(width: 64, height: 48, isOpaque: true, bytes: bytes).withColorProfile(.displayP3)
    }()

    static let encoders: [(String, @Sendable (Image) throws -> Data)] = [
        ("png", { try ImageEncoders.png($0) }),
        ("jpeg", { try ImageEncoders.jpeg($0, quality: 0.95) }),
        ("webp lossless", { try ImageEncoders.webp($0, lossless: true) }),
        ("webp lossy", { try ImageEncoders.webp($0, quality: 0.9) }),
        ("avif", { try ImageEncoders.avif($0, quality: 0.9) }),
    ]

    @Test("the profile an image carries is embedded, and decoding with it converts", arguments: 0..<encoders.count)
    func embedsProfile(_ index: Int) throws {
        let (name, encode) = Self.encoders[index]
        let data = try encode(Self.p3Image)
        let kept = try ImageDecoderRegistry.default.decode(
            data, options: ImageDecodingOptions(keepsOriginalColors: true))
        #expect(kept.image.colorProfile?.iccData == ColorProfile.displayP3.iccData, "\(name)")
        let converted = try ImageDecoderRegistry.default.decode(data)
        guard case .converted(let from) = converted.colorHandling else {
            Issue.record("\(name): \(converted.colorHandling)")
            return
        }
        #expect(from == "Display P3")
    }

    @Test("an sRGB image is written untagged", arguments: 0..<encoders.count)
    func sRGBIsUntagged(_ index: Int) throws {
        let (name, encode) = Self.encoders[index]
        let data = try encode(Self.p3Image.withColorProfile(nil))
        #expect(try ImageDecoderRegistry.default.decode(data).colorHandling == .untagged, "\(name)")
    }

    @Test("a lossless round trip with the original colours kept gives the same numbers and profile")
    func losslessRoundTripKeepsEverything() throws {
        let data = try ImageEncoders.png(Self.p3Image)
        let decoded = try ImageDecoderRegistry.default.decode(
            data, options: ImageDecodingOptions(keepsOriginalColors: true))
        #expect(decoded.image == Self.p3Image)
    }

    @Test("converting, orienting and cropping keep the profile")
    func helpersKeepProfile() {
        let image = Self.p3Image
        #expect(image.converted(to: .rgba8Premultiplied).colorProfile == .displayP3)
        #expect(image.applying(.right).colorProfile == .displayP3)
        #expect(image.cropped(x: 1, y: 1, width: 8, height: 8).colorProfile == .displayP3)
    }

    @Test("images with different profiles are not equal")
    func profileTakesPartInEquality() {
        #expect(Self.p3Image != Self.p3Image.withColorProfile(nil))
    }
}
