import Foundation
import Testing
@testable import Imaging
import CometTestSupport

/// The registry that chooses a decoder by format.
@Suite("Decoder registry")
struct ImageDecoderRegistryTests {
    /// A decoder that answers a 1×1 image of one colour, to tell decoders apart.
    struct ColourDecoder: ImageDecoding {
        let type: AssetType
        let colour: RGBA8
        func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
            DecodedImage(image: Image(width: 1, height: 1, color: colour), type: type, sourceWidth: 1, sourceHeight: 1)
        }
    }

    static let magic: @Sendable (Data) -> Bool = { $0.starts(with: Array("ZZZZ".utf8)) }

    /// HEIC and JPEG XL files are made by tools, not here: their suites decode them through the
    /// default registry (HEICDecoderTests, JPEGXLDecoderTests).
    @Test func theDefaultRegistryDecodesPNGJPEGWebPGIFAVIFHEICAndJPEGXL() throws {
        #expect(ImageDecoderRegistry.default.types == [.png, .jpeg, .webp, .gif, .avif, .heic, .jpegXL])
        #expect(
            try ImageDecoderRegistry.default.decode(CometTestSupport.TestImages.webp(width: 6, height: 3)).type == .webp
        )
        #expect(
            try ImageDecoderRegistry.default.decode(CometTestSupport.TestImages.animatedGIF(width: 6, height: 3)).type
                == .gif)
        #expect(
            try ImageDecoderRegistry.default.decode(CometTestSupport.TestImages.avif(width: 6, height: 3)).type == .avif
        )
        #expect(
            try ImageDecoderRegistry.default.decode(CometTestSupport.TestImages.png(width: 5, height: 3)).image.width
                == 5)
        #expect(
            try ImageDecoderRegistry.default.decode(CometTestSupport.TestImages.jpeg(width: 7, height: 3)).image.width
                == 7)
    }

    @Test func anEmptyRegistryRefusesKnownFormatsAsUnsupported() {
        #expect(throws: ImageDecodingError.unsupportedFormat(.png)) {
            try ImageDecoderRegistry().decode(CometTestSupport.TestImages.png())
        }
    }

    @Test func aRegisteredRecogniserNamesItsFormat() {
        var registry = ImageDecoderRegistry.default
        registry.register("zzzz", decoder: ColourDecoder(type: "zzzz", colour: .white), recognizedBy: Self.magic)
        #expect(registry.format(of: Data("ZZZZ and more".utf8)) == "zzzz")
        #expect(registry.format(of: CometTestSupport.TestImages.png()) == .png)
        #expect(registry.format(of: Data("nothing known here".utf8)) == nil)
    }

    @Test func registeringABuiltInTypeReplacesItsDecoder() throws {
        var registry = ImageDecoderRegistry.default
        registry.register(.png, decoder: ColourDecoder(type: .png, colour: .black))
        #expect(try registry.decode(CometTestSupport.TestImages.png()).image.pixel(x: 0, y: 0) == .black)
        #expect(
            try ImageDecoderRegistry.default.decode(CometTestSupport.TestImages.png(width: 2, height: 2)).image.width
                == 2)  // the default is untouched
    }

    @Test func aRemovedDecoderMakesItsFormatUnsupported() {
        var registry = ImageDecoderRegistry.default
        registry.removeDecoder(for: .jpeg)
        #expect(throws: ImageDecodingError.unsupportedFormat(.jpeg)) {
            try registry.decode(CometTestSupport.TestImages.jpeg())
        }
    }

    @Test func aFormatWithoutAnIncrementalDecoderIsDecodedWhenComplete() throws {
        var registry = ImageDecoderRegistry()
        registry.register("zzzz", decoder: ColourDecoder(type: "zzzz", colour: .white), recognizedBy: Self.magic)
        let decoder = IncrementalImageDecoder(registry: registry)
        try decoder.append(Data("ZZZZ".utf8))
        try decoder.append(Data(" and the rest of the file".utf8))
        #expect(try decoder.makePreview() == nil)
        #expect(decoder.type == "zzzz")
        #expect(try decoder.finish().image.pixel(x: 0, y: 0) == .white)
    }

    @Test func theIncrementalDecoderWaitsForEnoughBytesToRecogniseAFormat() throws {
        let decoder = IncrementalImageDecoder()
        let png = CometTestSupport.TestImages.png()
        for byte in png.prefix(7) { try decoder.append(Data([byte])) }
        #expect(decoder.type == nil)
        try decoder.append(png.dropFirst(7))
        #expect(decoder.type == .png)
        #expect(try decoder.finish().image.width == 64)
    }
}
