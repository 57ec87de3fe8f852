import Foundation
import Testing

@testable import Imaging

/// JPEG XL comes as a bare codestream (FF 0A) or in its ISO BMFF container, whose first box is
/// the 12-byte signature box `JXL ` (00 00 00 0C 4A 58 4C 20 0D 0A 87 0A).
@Suite("JPEG XL signatures")
struct JPEGXLSignatureTests {
    @Test func aBareCodestreamIsJPEGXL() {
        #expect(AssetType(Data([0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90, 0x08])) == .jpegXL)
    }

    @Test func theContainerIsJPEGXL() {
        let signature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        #expect(AssetType(Data(signature + [0x00, 0x00, 0x00, 0x14] + Array("ftypjxl ".utf8))) == .jpegXL)
    }

    @Test func aJPEGIsNotJPEGXL() {
        #expect(AssetType(Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
    }

    @Test func theDefaultRegistryHasADecoderForBoth() {
        #expect(ImageDecoderRegistry.default.decoder(for: .jpegXL) is JPEGXLDecoder)
        #expect(ImageDecoderRegistry.default.decoder(for: .heic) is HEICDecoder)
    }
}
