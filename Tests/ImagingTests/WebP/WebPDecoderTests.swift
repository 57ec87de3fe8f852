import CometTestSupport
import Foundation
import Testing
@testable import Imaging

@Suite("WebP decoding", .requiresCorpus("webp"))
struct WebPDecoderTests {
    static func file(_ name: String) throws -> Data { try TestCorpus.data("webp/libwebp-test-data/\(name)") }

    @Test func theRegistryRecognisesAndDecodesWebPByDefault() throws {
        let decoded = try ImageDecoders.decode(Self.file("test.webp"))
        #expect(decoded.type == .webp)
        #expect(decoded.image.width == decoded.sourceWidth && decoded.image.height == decoded.sourceHeight)
    }

    @Test func lossyFileWithoutAlphaIsOpaque() throws {
        #expect(try WebPDecoder().decode(Self.file("test.webp")).image.isOpaque)
    }

    @Test func fileWithAlphaIsNotOpaqueAndHasTransparentPixels() throws {
        let image = try WebPDecoder().decode(Self.file("lossy_alpha1.webp")).image
        #expect(!image.isOpaque)
        #expect(image.packedBytes.enumerated().contains { $0.offset % 4 == 3 && $0.element < 255 })
    }

    @Test func maxPixelSizeDecodesAtTheTargetSizeWithLibwebpsScaler() throws {
        let full = try WebPDecoder().decode(Self.file("bryce.webp"))
        let thumb = try WebPDecoder().decode(
            Self.file("bryce.webp"), options: ImageDecodingOptions(downsampling: .maxPixelSize(256)))
        #expect(max(thumb.image.width, thumb.image.height) == 256)
        #expect(thumb.sourceWidth == full.image.width && thumb.sourceHeight == full.image.height)
        let expectedShort =
            Double(min(full.image.width, full.image.height)) * 256 / Double(max(full.image.width, full.image.height))
        #expect(abs(Double(min(thumb.image.width, thumb.image.height)) - expectedShort) <= 1)
    }

    @Test func coveringDecodesJustLargeEnoughToFillTheTarget() throws {
        let full = try WebPDecoder().decode(Self.file("bryce.webp")).image
        let thumb = try WebPDecoder().decode(
            Self.file("bryce.webp"), options: ImageDecodingOptions(downsampling: .covering(width: 200, height: 200))
        ).image
        #expect(thumb.width >= 200 && thumb.height >= 200)
        #expect(min(thumb.width, thumb.height) == 200)
        #expect(thumb.width < full.width)
    }

    @Test func aTargetLargerThanTheFileDecodesAtFullSize() throws {
        let full = try WebPDecoder().decode(Self.file("test.webp")).image
        let same = try WebPDecoder().decode(
            Self.file("test.webp"), options: ImageDecodingOptions(downsampling: .maxPixelSize(100_000))
        ).image
        #expect(same == full)
    }

    @Test func aScaledDecodeLooksLikeTheFullImageResized() throws {
        let full = try WebPDecoder().decode(Self.file("bryce.webp")).image
        let thumb = try WebPDecoder().decode(
            Self.file("bryce.webp"), options: ImageDecodingOptions(downsampling: .maxPixelSize(256))
        ).image
        // libwebp's scaler averages areas: compare with the area-averaging resize.
        let resized = try ImageProcessors.Resize(
            size: Size(width: thumb.width, height: thumb.height), contentMode: .stretch, filter: .areaAverage
        ).process(full)
        #expect(channelDifference(thumb, resized).mean < 3)
    }

    @Test(arguments: [8, 12, 20, 30, 100, 400])
    func everyTruncatedPrefixIsAnErrorNotACrash(_ length: Int) throws {
        for name in ["test.webp", "lossless1.webp", "lossy_alpha1.webp"] {
            let data = try Self.file(name)
            #expect(throws: ImageDecodingError.self, "\(name) cut at \(length)") {
                _ = try WebPDecoder().decode(data.prefix(min(length, data.count - 1)))
            }
        }
    }

    @Test func aFileCutInTheMiddleOfItsPixelsIsCorruptWithLibwebpsReason() throws {
        let data = try Self.file("test.webp")
        #expect {
            _ = try WebPDecoder().decode(data.prefix(data.count / 2))
        } throws: { error in
            guard case .corrupt(.webp, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("libwebp")
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let files = try ["test.webp", "lossless1.webp", "lossy_alpha2.webp"].map(Self.file)
        decodeWithFlippedBytes(files, count: 200, seed: 18) { _ = try WebPDecoder().decode($0) }
    }
}

/// Limits are checked on the header, before libwebp allocates anything image-sized.
@Suite("WebP limits")
struct WebPLimitsTests {
    /// A minimal lossless (VP8L) file declaring `width`×`height` and nothing more.
    static func losslessHeader(width: Int, height: Int) -> Data {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14 | 1 << 28  // alpha hint; version 0
        var vp8l: [UInt8] =
            [0x2F] + withUnsafeBytes(of: bits.littleEndian, Array.init) + [UInt8](repeating: 0, count: 16)
        if vp8l.count % 2 == 1 { vp8l.append(0) }
        var body: [UInt8] =
            Array("WEBP".utf8) + Array("VP8L".utf8) + withUnsafeBytes(of: UInt32(21).littleEndian, Array.init) + vp8l
        body = Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + body
        return Data(body)
    }

    @Test func aLosslessHeaderOf16384Squared() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.losslessHeader(width: 16384, height: 16384))
        } throws: { error in
            guard case .tooLarge(16384, 16384, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    @Test func theDimensionLimitApplies() throws {
        var options = ImageDecodingOptions()
        options.limits.maxDimension = 1000
        #expect {
            _ = try WebPDecoder().decode(Self.losslessHeader(width: 1001, height: 10), options: options)
        } throws: { error in
            guard case .tooLarge(1001, 10, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("1000")
        }
    }

    @Test func aThumbnailOfAHugeDeclaredImageIsStillRefusedBySourcePixels() throws {
        var options = ImageDecodingOptions(downsampling: .maxPixelSize(64))
        options.limits.maxSourcePixelCount = 1 << 20
        #expect(throws: ImageDecodingError.self) {
            _ = try WebPDecoder().decode(Self.losslessHeader(width: 4096, height: 4096), options: options)
        }
    }
}
