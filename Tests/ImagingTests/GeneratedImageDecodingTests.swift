import Foundation
import Testing
@testable import Imaging

/// Decoding checks made from files the tests write themselves, so that a clone without the
/// corpus still checks them: PNGs of every 8-bit colour type, plain and interlaced, with every
/// row filter (``SyntheticPNG``); EXIF orientations 1–8 in both byte orders (``EXIFSegment``);
/// progressive and truncated JPEGs from libjpeg's encoder. The corpus suites check the same
/// behaviours on other encoders' files.
@Suite("Decoding generated images")
struct GeneratedImageDecodingTests {
    /// Sizes that leave some Adam7 passes empty (1×1, 3×5) and some partial (9×9, 33×17).
    static let sizes = [(1, 1), (3, 5), (9, 9), (33, 17)]

    @Test(arguments: SyntheticPNG.ColorType.allCases, [false, true])
    func pngOfEveryColourTypeDecodesExactly(colorType: SyntheticPNG.ColorType, interlaced: Bool) throws {
        for (width, height) in Self.sizes {
            let source = GeneratedFiles.photo(width: width, height: height, alpha: true)
            let data = SyntheticPNG.encode(source, colorType: colorType, interlaced: interlaced)
            let decoded = try PNGDecoder().decode(data)
            let expected = SyntheticPNG.representable(source, as: colorType)
            #expect(decoded.image.width == width && decoded.image.height == height)
            #expect(decoded.image.packedBytes == expected.packedBytes, "\(width)×\(height)")
            #expect(decoded.image.isOpaque == !colorType.hasAlpha)
            #expect(decoded.isClean)
        }
    }

    /// Where the stored image's red top-left and green top-right corners must appear once EXIF
    /// orientation 1–8 is applied (EXIF 2.3, tag 0x0112: "the 0th row is the visual …").
    static let cornersByOrientation: [Int: (red: Corner, green: Corner)] = [
        1: (.topLeft, .topRight), 2: (.topRight, .topLeft), 3: (.bottomRight, .bottomLeft),
        4: (.bottomLeft, .bottomRight),
        5: (.topLeft, .bottomLeft), 6: (.topRight, .bottomRight), 7: (.bottomRight, .topRight),
        8: (.bottomLeft, .topLeft),
    ]

    enum Corner: CaseIterable {
        case topLeft, topRight, bottomLeft, bottomRight

        /// The pixel 8 pixels in from this corner of `image`.
        func pixel(of image: Image) -> RGBA8 {
            let x = self == .topLeft || self == .bottomLeft ? 8 : image.width - 9
            let y = self == .topLeft || self == .topRight ? 8 : image.height - 9
            return image.pixel(x: x, y: y)
        }
    }

    /// A 64×32 grey JPEG with a red 16×16 block at its top-left corner and a green one at its
    /// top-right corner, as stored (before any orientation).
    static func markedJPEG() throws -> Data {
        let image = Image(width: 64, height: 32, color: RGBA8(red: 128, green: 128, blue: 128, alpha: 255))
        var bytes = image.packedBytes
        for y in 0..<16 {
            for x in 0..<16 {
                bytes.replaceSubrange((y * 64 + x) * 4..<(y * 64 + x) * 4 + 4, with: [255, 0, 0, 255])
                bytes.replaceSubrange((y * 64 + 48 + x) * 4..<(y * 64 + 48 + x) * 4 + 4, with: [0, 255, 0, 255])
            }
        }
        return try ImageEncoders.jpeg(Image(width: 64, height: 32, isOpaque: true, bytes: bytes), quality: 0.95)
    }

    @Test(arguments: 1...8)
    func exifOrientationIsAppliedInEitherByteOrder(_ orientation: Int) throws {
        let stored = try Self.markedJPEG()
        let (red, green) = try #require(Self.cornersByOrientation[orientation])
        for bigEndian in [true, false] {
            let decoded = try JPEGDecoder().decode(
                EXIFSegment.inserting(orientation: orientation, bigEndian: bigEndian, into: stored))
            let image = decoded.image
            #expect(decoded.orientation.rawValue == orientation)
            let size: [Int] = orientation >= 5 ? [32, 64] : [64, 32]
            #expect([image.width, image.height] == size)
            for corner in Corner.allCases {
                let expected = corner == red ? "red" : corner == green ? "green" : "grey"
                #expect(
                    Self.colourName(corner.pixel(of: image)) == expected,
                    "orientation \(orientation), \(bigEndian ? "big" : "little")-endian EXIF, \(corner)")
            }
        }
    }

    /// "red", "green" or "grey" for the marked JPEG's colours after compression, else the pixel.
    static func colourName(_ pixel: RGBA8) -> String {
        let (red, green) = (Int(pixel.red), Int(pixel.green))
        if red > 200 && green < 60 { return "red" }
        if green > 200 && red < 60 { return "green" }
        if (100...156).contains(red) && (100...156).contains(green) { return "grey" }
        return "\(pixel)"
    }

    @Test func exifOrientationCanBeLeftUnapplied() throws {
        let stored = try Self.markedJPEG()
        let data = EXIFSegment.inserting(orientation: 6, into: stored)
        let decoded = try JPEGDecoder().decode(data, options: ImageDecodingOptions(appliesOrientation: false))
        #expect(decoded.orientation == .right)
        #expect(decoded.image == (try JPEGDecoder().decode(stored)).image)
    }

    @Test func progressiveJPEGDecodesLikeItsBaseline() throws {
        let baseline = try JPEGDecoder().decode(GeneratedFiles.baselineJPEG())
        let progressive = try JPEGDecoder().decode(GeneratedFiles.progressiveJPEG())
        #expect(baseline.isClean && progressive.isClean)
        #expect(channelDifference(baseline.image, progressive.image).mean < 1)
    }

    @Test func truncatedJPEGIsConcealedAndStrictModeRefusesIt() throws {
        let data = try GeneratedFiles.baselineJPEG()
        let cut = data.prefix(data.count * 2 / 3)
        let concealed = try JPEGDecoder().decode(cut)
        #expect(!concealed.isClean, "a cut file must be reported as concealed")
        #expect(concealed.image.width == 227 && concealed.image.height == 149)
        #expect(throws: ImageDecodingError.self) {
            _ = try JPEGDecoder().decode(cut, options: ImageDecodingOptions(isStrict: true))
        }
    }
}
