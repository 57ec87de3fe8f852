import CometTestSupport
import Foundation
import Testing
@testable import Imaging

@Suite("Decoding limits and downsampling")
struct JPEGLimitsTests {
    @Test(.requiresCorpus("sharp-photos"))
    func giantImageIsRejectedUnderDefaultLimits() throws {
        let data = try TestCorpus.data("sharp-photos/giant-image.jpg")
        #expect {
            _ = try JPEGDecoder().decode(data)
        } throws: { error in
            guard case .tooLarge(let width, let height, _) = error as? ImageDecodingError else { return false }
            return width == 20000 && height == 14000
        }
    }

    @Test(.requiresCorpus("sharp-photos"))
    func giantImageDecodesAsThumbnailAtOneEighth() throws {
        let decoded = try JPEGDecoder().decode(
            TestCorpus.data("sharp-photos/giant-image.jpg"),
            options: ImageDecodingOptions(downsampling: .maxPixelSize(256)))
        #expect(decoded.image.width == 2500 && decoded.image.height == 1750)
        #expect(decoded.sourceWidth == 20000 && decoded.sourceHeight == 14000)
    }

    /// 227×149 scales to 113×74 at 1/2, 56×37 at 1/4 and 28×18 at 1/8 (whole blocks: the decoder
    /// drops the partial last column and row libjpeg rounds up to).
    @Test(arguments: [(1000, 1), (228, 1), (227, 1), (114, 1), (113, 2), (57, 2), (56, 4), (29, 4), (28, 8), (1, 8)])
    func smallestScaleThatStillCoversTheTarget(target: Int, denominator: Int) {
        let d = ImageDecodingOptions.Downsampling.maxPixelSize(target).jpegScaleDenominator(
            width: 227, height: 149, orientation: .up)
        #expect(d == denominator)
    }

    @Test func coveringTargetUsesTheShorterSide() {
        // 227×149 covering 64×64: 1/2 gives 114×75 (covers), 1/4 gives 57×38 (does not).
        let d = ImageDecodingOptions.Downsampling.covering(width: 64, height: 64).jpegScaleDenominator(
            width: 227, height: 149, orientation: .up)
        #expect(d == 2)
    }

    @Test func hugeDeclaredDimensionsFailBeforeAllocation() throws {
        // A generated JPEG whose header is patched to declare 60000×60000: rejected from the header alone.
        var bytes = [UInt8](try ImageEncoders.jpeg(EncodingTests.gradient(width: 227, height: 149, alpha: false)))
        let sof = (2..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes[sof + 5] = 0xEA; bytes[sof + 6] = 0x60; bytes[sof + 7] = 0xEA; bytes[sof + 8] = 0x60
        #expect {
            _ = try JPEGDecoder().decode(Data(bytes))
        } throws: { error in
            if case .tooLarge(60000, 60000, _) = error as? ImageDecodingError { return true }
            return false
        }
    }

    @Test func pngDeclaringHugeDimensionsFailsBeforeAllocation() throws {
        var bytes = [UInt8](try EncodingTests.gradient(width: 32, height: 32, alpha: false).pngData())
        // IHDR width/height at offsets 16 and 20; then fix the CRC so only the size is wrong.
        let size: [UInt8] = [0x00, 0x01, 0x86, 0xA0]  // 100000
        bytes.replaceSubrange(16..<20, with: size)
        bytes.replaceSubrange(20..<24, with: size)
        let crc = CRC32.checksum(bytes[12..<29])
        bytes.replaceSubrange(
            29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect {
            _ = try PNGDecoder().decode(Data(bytes))
        } throws: { error in
            if case .tooLarge = error as? ImageDecodingError { return true }
            return false
        }
    }
}

/// CRC-32 as PNG uses it (for patching test files).
enum CRC32 {
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
