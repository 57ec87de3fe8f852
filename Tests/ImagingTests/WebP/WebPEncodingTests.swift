import Foundation
import Testing
@testable import Imaging

@Suite("WebP encoding")
struct WebPEncodingTests {
    /// A smooth photo-like test image with optional alpha.
    static func photo(width: Int = 96, height: Int = 64, alpha: Bool) -> Image {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = 128 + 100 * sin(Double(x) / 9), g = 128 + 90 * cos(Double(y) / 7), b = Double((x + 2 * y) % 256)
                bytes += [UInt8(r), UInt8(g), UInt8(b), alpha ? UInt8((x * 255) / (width - 1)) : 255]
            }
        }
        return Image(width: width, height: height, isOpaque: !alpha, bytes: bytes)
    }

    /// Peak signal-to-noise ratio of the colour channels, in dB.
    static func psnr(_ a: Image, _ b: Image) -> Double {
        let pa = a.packedBytes, pb = b.packedBytes
        var sum = 0.0, count = 0
        for i in 0..<pa.count where i % 4 != 3 {
            let d = Double(pa[i]) - Double(pb[i])
            sum += d * d
            count += 1
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(count)))
    }

    @Test func losslessRoundTripIsExactIncludingAlpha() throws {
        let image = Self.photo(alpha: true)
        let decoded = try WebPDecoder().decode(image.webpData(lossless: true))
        #expect(decoded.image.packedBytes == image.packedBytes)
        #expect(!decoded.image.isOpaque)
    }

    @Test func losslessKeepsTheColourOfFullyTransparentPixels() throws {
        let image = Image(width: 4, height: 4, color: RGBA8(red: 200, green: 10, blue: 30, alpha: 0))
        let decoded = try WebPDecoder().decode(ImageEncoders.webp(image, lossless: true)).image
        #expect(decoded.pixel(x: 2, y: 2) == RGBA8(red: 200, green: 10, blue: 30, alpha: 0))
    }

    /// Lossy at the default quality (0.8) stays above 30 dB on a smooth image.
    @Test func lossyRoundTripIsAbove30dB() throws {
        let image = Self.photo(alpha: false)
        let decoded = try WebPDecoder().decode(image.webpData())
        #expect(decoded.image.isOpaque)
        #expect(Self.psnr(image, decoded.image) > 30)
    }

    @Test func higherQualityGivesLargerFilesAndHigherPSNR() throws {
        let image = Self.photo(width: 128, height: 128, alpha: false)
        let low = try ImageEncoders.webp(image, quality: 0.3), high = try ImageEncoders.webp(image, quality: 0.95)
        #expect(low.count < high.count)
        #expect(Self.psnr(image, try Image(data: low)) < Self.psnr(image, try Image(data: high)))
    }

    @Test func lossyKeepsAlpha() throws {
        let image = Self.photo(alpha: true)
        let decoded = try Image(data: image.webpData(quality: 0.9))
        #expect(!decoded.isOpaque)
        #expect(abs(Int(decoded.pixel(x: 0, y: 10).alpha) - 0) <= 8)
        #expect(abs(Int(decoded.pixel(x: 95, y: 10).alpha) - 255) <= 8)
    }

    @Test func theWebPEncoderTypeWritesWebP() throws {
        let encoder = ImageEncoders.WebP(quality: 0.7)
        #expect(encoder.type == .webp)
        #expect(AssetType(try encoder.encode(Self.photo(alpha: false))) == .webp)
    }

    @Test func aViewIsEncodedWithoutTheRestOfTheImage() throws {
        let image = Self.photo(alpha: true)
        let view = image.cropped(x: 10, y: 5, width: 30, height: 20)
        let decoded = try Image(data: view.webpData(lossless: true))
        #expect(decoded.packedBytes == view.packedBytes)
    }

    @Test func imagesWiderThanWebPAllowsAreRefusedWithAReason() throws {
        let image = Image(width: 16_384, height: 1, color: RGBA8(red: 1, green: 2, blue: 3, alpha: 255))
        #expect {
            _ = try image.webpData()
        } throws: { error in
            (error as? ImageEncodingError)?.reason.contains("16383") == true
        }
    }
}
