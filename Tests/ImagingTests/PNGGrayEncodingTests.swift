import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// A grey source stays grey: the PNG decoder marks a grey file's image (``Image/isGray``), the
/// processors that keep grey pixels grey carry the mark, and the PNG encoder writes a marked
/// image whose pixels are all grey as 8-bit grey (or grey + alpha), with the same pixels and
/// fewer bytes than RGB. The 16-bit files are written by the tests.
@Suite("PNG grey encoding")
struct PNGGrayEncodingTests {
    /// A `width`×`height` 16-bit grey PNG (grey + alpha with `alpha`) of a gradient that uses
    /// both bytes of each sample, its rows unfiltered in stored deflate blocks.
    static func sixteenBitGrayPNG(width: Int, height: Int, alpha: Bool = false) -> Data {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let gray = UInt16(truncatingIfNeeded: (x * 65_535 / max(width - 1, 1) + y * 4_099) % 65_536)
                raw += [UInt8(gray >> 8), UInt8(gray & 0xFF)]
                if alpha { raw += [UInt8(255 - y * 255 / max(height - 1, 1)), 0x7F] }
            }
        }
        let header =
            PNGChunks.bigEndian(UInt32(width)) + PNGChunks.bigEndian(UInt32(height)) + [16, alpha ? 4 : 0, 0, 0, 0]
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGChunks.chunk("IHDR", header)
            + PNGChunks.chunk("IDAT", SyntheticPNG.storedZlib(raw)) + PNGChunks.chunk("IEND", [])
        return Data(png)
    }

    /// An 8-bit palette PNG of `width`×`height` pixels, pixel (x, y) taking entry
    /// `(x + y) % palette.count`.
    static func palettePNG(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)]) -> Data {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw.append(UInt8((x + y) % palette.count)) }
        }
        let header = PNGChunks.bigEndian(UInt32(width)) + PNGChunks.bigEndian(UInt32(height)) + [8, 3, 0, 0, 0]
        let entries = palette.flatMap { [$0.0, $0.1, $0.2] }
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGChunks.chunk("IHDR", header)
            + PNGChunks.chunk("PLTE", entries) + PNGChunks.chunk("IDAT", SyntheticPNG.storedZlib(raw))
            + PNGChunks.chunk("IEND", [])
        return Data(png)
    }

    /// `image` without the grey mark.
    static func unmarked(_ image: Image) -> Image {
        var copy = image
        copy.isGray = false
        return copy
    }

    /// Decodes `source`, encodes the image as PNG and checks the result: grey (`colorType`), 8
    /// bits, the same pixels once decoded, and no larger than the same pixels written as RGB.
    static func expectWrittenGrey(_ source: Data, colorType: Int, _ context: String) throws {
        let decoded = try PNGDecoder().decode(source).image
        #expect(decoded.isGray, "\(context)")
        let gray = try ImageEncoders.png(decoded)
        let header = PNGChunks.header(of: gray)
        #expect(header.colorType == colorType && header.bitDepth == 8, "\(context): \(header)")
        #expect(try PNGDecoder().decode(gray).image.packedBytes == decoded.packedBytes, "\(context)")
        let rgb = try ImageEncoders.png(Self.unmarked(decoded))
        #expect(PNGChunks.header(of: rgb).colorType == (colorType == 0 ? 2 : 6), "\(context)")
        #expect(gray.count <= rgb.count, "\(context): \(gray.count) bytes grey, \(rgb.count) RGB")
    }

    @Test func sixteenBitGreyPNGIsWrittenAsEightBitGreyWithTheSamePixels() throws {
        try Self.expectWrittenGrey(Self.sixteenBitGrayPNG(width: 48, height: 40), colorType: 0, "16-bit grey")
    }

    @Test func sixteenBitGreyWithAlphaIsWrittenAsEightBitGreyAndAlpha() throws {
        try Self.expectWrittenGrey(
            Self.sixteenBitGrayPNG(width: 48, height: 40, alpha: true), colorType: 4, "16-bit grey + alpha")
    }

    @Test(.requiresCorpus("pngsuite"), arguments: ["basn0g16.png", "basn4a16.png", "basn0g08.png"])
    func pngSuitesGreyFilesAreWrittenGrey(_ name: String) throws {
        try Self.expectWrittenGrey(
            TestCorpus.data("pngsuite/\(name)"), colorType: name.hasPrefix("basn4") ? 4 : 0, name)
    }

    @Test(arguments: [SyntheticPNG.ColorType.gray, .grayAlpha])
    func eightBitGreyIsWrittenGrey(_ colorType: SyntheticPNG.ColorType) throws {
        let source = GeneratedFiles.photo(width: 33, height: 17, alpha: true)
        let data = SyntheticPNG.encode(source, colorType: colorType, interlaced: false)
        try Self.expectWrittenGrey(data, colorType: Int(colorType.rawValue), "\(colorType)")
    }

    @Test func aPaletteOfGreysIsWrittenGrey() throws {
        let grays: [(UInt8, UInt8, UInt8)] = (0..<16).map { (level: Int) in
            let value = UInt8(level * 17)
            return (value, value, value)
        }
        try Self.expectWrittenGrey(Self.palettePNG(width: 20, height: 12, palette: grays), colorType: 0, "palette")
    }

    @Test func colourFilesAreNotMarkedGrey() throws {
        let colours = Self.palettePNG(width: 20, height: 12, palette: [(0, 0, 0), (255, 255, 255), (10, 20, 30)])
        #expect(!(try PNGDecoder().decode(colours).image.isGray))
        for colorType in [SyntheticPNG.ColorType.rgb, .rgba] {
            let data = SyntheticPNG.encode(
                GeneratedFiles.photo(width: 9, height: 9), colorType: colorType, interlaced: false)
            #expect(!(try PNGDecoder().decode(data).image.isGray), "\(colorType)")
        }
    }

    @Test func aMarkedImageWithOneColourPixelIsWrittenRGBWithItsPixels() throws {
        var bytes = Image(width: 16, height: 16, color: RGBA8(red: 90, green: 90, blue: 90, alpha: 255)).packedBytes
        bytes[bytes.count - 4] = 91  // the last pixel's red
        var image = Image(width: 16, height: 16, isOpaque: true, bytes: bytes)
        image.isGray = true
        let data = try ImageEncoders.png(image)
        #expect(PNGChunks.header(of: data).colorType == 2)
        #expect(try PNGDecoder().decode(data).image == image)
    }

    @Test func unmarkedImagesAreWrittenRGBEvenWhenTheirPixelsAreGrey() throws {
        let image = Image(width: 16, height: 16, color: RGBA8(red: 90, green: 90, blue: 90, alpha: 255))
        #expect(!image.isGray)
        #expect(PNGChunks.header(of: try ImageEncoders.png(image)).colorType == 2)
    }

    @Test func aMarkedImageWithAColourProfileIsWrittenRGB() throws {
        var image = Image(width: 16, height: 16, color: RGBA8(red: 90, green: 90, blue: 90, alpha: 255))
        image.isGray = true
        image.colorProfile = .displayP3
        #expect(PNGChunks.header(of: try ImageEncoders.png(image)).colorType == 2)
    }

    @Test func greyStaysGreyThroughOrientationResizeCropAndPremultiplying() throws {
        let exif = EXIFSegment.tiff(orientation: 6, bigEndian: true)
        let data = PNGChunks.insertingEXIf(exif, into: Self.sixteenBitGrayPNG(width: 48, height: 40, alpha: true))
        let decoded = try PNGDecoder().decode(data).image
        #expect(decoded.isGray && decoded.width == 40)
        let steps: [(String, Image)] = [
            ("Lanczos3 resize", try ImageProcessors.Resize(width: 17).process(decoded)),
            ("area-average resize", try ImageProcessors.Resize(width: 20, filter: .areaAverage).process(decoded)),
            ("crop", decoded.cropped(x: 3, y: 5, width: 20, height: 9)),
            ("premultiplied", decoded.converted(to: .rgba8Premultiplied)),
            (
                "grayscale of a colour image",
                try ImageProcessors.Grayscale().process(GeneratedFiles.photo(width: 9, height: 9))
            ),
        ]
        for (step, image) in steps {
            #expect(image.isGray, "\(step)")
            #expect(
                PNGChunks.header(of: try ImageEncoders.png(image)).colorType == 4 || step.hasPrefix("grayscale"),
                "\(step)")
        }
    }
}
