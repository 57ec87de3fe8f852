import Foundation
import Testing
@testable import Imaging

@Suite("Encoding")
struct EncodingTests {
    static func gradient(width: Int = 64, height: Int = 48, alpha: Bool) -> Image {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [
                    UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x + y) % 256),
                    alpha ? UInt8((x * 7 + y * 3) % 256) : 255,
                ]
            }
        }
        return Image(width: width, height: height, isOpaque: !alpha, bytes: bytes)
    }

    @Test func pngRoundTripIsLossless() throws {
        let image = Self.gradient(alpha: true)
        let decoded = try PNGDecoder().decode(image.pngData())
        #expect(decoded.image.packedBytes == image.packedBytes)
        #expect(!decoded.image.isOpaque)
    }

    @Test func opaquePNGIsWrittenWithoutAlphaAndReadsBackOpaque() throws {
        let image = Self.gradient(alpha: false)
        let rgba = try ImageEncoders.png(
            Image(width: image.width, height: image.height, isOpaque: false, bytes: image.packedBytes))
        let rgb = try image.pngData()
        #expect(rgb.count < rgba.count)
        let decoded = try PNGDecoder().decode(rgb).image
        #expect(decoded.isOpaque && decoded.packedBytes == image.packedBytes)
    }

    @Test func pngOfACroppedViewContainsOnlyTheView() throws {
        let image = Self.gradient(alpha: true)
        let view = image.cropped(x: 5, y: 7, width: 20, height: 10)
        let decoded = try Image(data: view.pngData())
        #expect(decoded.width == 20 && decoded.height == 10)
        #expect(decoded.pixel(x: 0, y: 0) == image.pixel(x: 5, y: 7))
        #expect(decoded.pixel(x: 19, y: 9) == image.pixel(x: 24, y: 16))
    }

    @Test func premultipliedImageIsWrittenAsStraightAlpha() throws {
        let color = RGBA8(red: 200, green: 100, blue: 50, alpha: 128)
        let premultiplied = Image(width: 4, height: 4, color: color, pixelFormat: .rgba8Premultiplied)
        let decoded = try Image(data: premultiplied.pngData())
        let pixel = decoded.pixel(x: 1, y: 1)
        #expect(abs(Int(pixel.red) - 200) <= 1 && abs(Int(pixel.green) - 100) <= 1 && pixel.alpha == 128)
    }

    @Test(arguments: [0.5, 0.85, 1.0])
    func jpegRoundTripStaysClose(quality: Double) throws {
        let image = Self.gradient(alpha: false)
        let data = try image.jpegData(compressionQuality: quality)
        #expect(AssetType(data) == .jpeg)
        let decoded = try JPEGDecoder().decode(data).image
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(channelDifference(decoded, image).mean < (quality >= 1 ? 2 : 6))
    }

    @Test func higherJPEGQualityGivesLargerFiles() throws {
        let image = Self.gradient(width: 128, height: 128, alpha: false)
        #expect(try image.jpegData(compressionQuality: 0.3).count < image.jpegData(compressionQuality: 0.95).count)
    }

    @Test func progressiveJPEGEncodingProducesAMultiScanFile() throws {
        let data = try ImageEncoders.jpeg(Self.gradient(alpha: false), progressive: true)
        let sofMarkers = zip(data, data.dropFirst()).filter { $0.0 == 0xFF && $0.1 == 0xC2 }.count
        #expect(sofMarkers == 1)
        #expect(try JPEGDecoder().decode(data).isClean)
    }
}
