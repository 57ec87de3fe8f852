import Foundation
import Testing
@testable import Imaging

/// A PNG's eXIf chunk carries an EXIF block (a TIFF header and IFD0) whose orientation tag is
/// applied exactly as a JPEG's is, once, by one-shot and incremental decoding alike; a damaged
/// block means no orientation. The files are the project's own PNGs with a chunk put in.
@Suite("PNG EXIF orientation")
struct PNGOrientationTests {
    typealias Corner = GeneratedImageDecodingTests.Corner

    /// A 64×32 grey image with a red 16×16 block at its top-left corner and a green one at its
    /// top-right corner, as stored (before any orientation).
    static let marked: Image = {
        var bytes = Image(width: 64, height: 32, color: RGBA8(red: 128, green: 128, blue: 128, alpha: 255)).packedBytes
        for y in 0..<16 {
            for x in 0..<16 {
                bytes.replaceSubrange((y * 64 + x) * 4..<(y * 64 + x) * 4 + 4, with: [255, 0, 0, 255])
                bytes.replaceSubrange((y * 64 + 48 + x) * 4..<(y * 64 + 48 + x) * 4 + 4, with: [0, 255, 0, 255])
            }
        }
        return Image(width: 64, height: 32, isOpaque: true, bytes: bytes)
    }()

    static func markedPNG() throws -> Data { try ImageEncoders.png(marked) }

    static func colourName(_ pixel: RGBA8) -> String {
        switch (pixel.red, pixel.green, pixel.blue) {
        case (255, 0, 0): "red"
        case (0, 255, 0): "green"
        case (128, 128, 128): "grey"
        default: "\(pixel)"
        }
    }

    /// Checks that `image` is the marked image turned upright for EXIF orientation `orientation`.
    static func expectUpright(_ image: Image, orientation: Int, _ context: String = "") throws {
        let (red, green) = try #require(GeneratedImageDecodingTests.cornersByOrientation[orientation])
        let size: [Int] = orientation >= 5 ? [32, 64] : [64, 32]
        #expect([image.width, image.height] == size, "orientation \(orientation) \(context)")
        for corner in Corner.allCases {
            let expected = corner == red ? "red" : corner == green ? "green" : "grey"
            #expect(
                colourName(corner.pixel(of: image)) == expected, "orientation \(orientation) \(context), \(corner)")
        }
    }

    @Test(arguments: 1...8)
    func eXIfOrientationIsAppliedInEitherByteOrder(_ orientation: Int) throws {
        for bigEndian in [true, false] {
            let exif = EXIFSegment.tiff(orientation: orientation, bigEndian: bigEndian)
            let decoded = try PNGDecoder().decode(PNGChunks.insertingEXIf(exif, into: Self.markedPNG()))
            #expect(decoded.orientation.rawValue == orientation)
            #expect(decoded.isClean)
            #expect(decoded.sourceWidth == 64 && decoded.sourceHeight == 32)
            try Self.expectUpright(decoded.image, orientation: orientation, bigEndian ? "big-endian" : "little-endian")
        }
    }

    @Test func eXIfOrientationIsAppliedAsForTheSameEXIFInAJPEG() throws {
        for orientation in 1...8 {
            let exif = EXIFSegment.tiff(orientation: orientation, bigEndian: true)
            let png = try PNGDecoder().decode(PNGChunks.insertingEXIf(exif, into: Self.markedPNG()))
            let jpegData = EXIFSegment.inserting(orientation: orientation, into: try ImageEncoders.jpeg(Self.marked))
            let jpeg = try JPEGDecoder().decode(jpegData)
            #expect(png.orientation == jpeg.orientation)
            #expect(png.image.width == jpeg.image.width && png.image.height == jpeg.image.height)
        }
    }

    @Test func eXIfAfterTheImageDataIsAppliedToo() throws {
        let exif = EXIFSegment.tiff(orientation: 6, bigEndian: true)
        let decoded = try PNGDecoder().decode(PNGChunks.insertingEXIf(exif, at: .beforeEnd, into: Self.markedPNG()))
        #expect(decoded.orientation == .right)
        try Self.expectUpright(decoded.image, orientation: 6)
    }

    @Test func eXIfWithJPEGsEXIFIdentifierIsReadToo() throws {
        let exif = Array("Exif".utf8) + [0, 0] + EXIFSegment.tiff(orientation: 8, bigEndian: false)
        let decoded = try PNGDecoder().decode(PNGChunks.insertingEXIf(exif, into: Self.markedPNG()))
        #expect(decoded.orientation == .left)
        try Self.expectUpright(decoded.image, orientation: 8)
    }

    @Test func eXIfOrientationCanBeLeftUnappliedAndIsStillReported() throws {
        let data = PNGChunks.insertingEXIf(
            EXIFSegment.tiff(orientation: 6, bigEndian: true), into: try Self.markedPNG())
        let decoded = try PNGDecoder().decode(data, options: ImageDecodingOptions(appliesOrientation: false))
        #expect(decoded.orientation == .right)
        #expect(decoded.image == Self.marked)
    }

    @Test func onlyTheFirstEXIfChunkCounts() throws {
        let first = PNGChunks.insertingEXIf(
            EXIFSegment.tiff(orientation: 3, bigEndian: true), into: try Self.markedPNG())
        let both = PNGChunks.insertingEXIf(
            EXIFSegment.tiff(orientation: 6, bigEndian: true), at: .beforeEnd, into: first)
        let decoded = try PNGDecoder().decode(both)
        #expect(decoded.orientation == .down)
        try Self.expectUpright(decoded.image, orientation: 3)
    }

    @Test(arguments: [1, 7, 64, 100_000])
    func incrementalDecodingAppliesTheOrientationOnceAsOneShotDoes(chunkSize: Int) throws {
        for place in [PNGChunks.Place.afterHeader, .beforeEnd] {
            let data = PNGChunks.insertingEXIf(
                EXIFSegment.tiff(orientation: 5, bigEndian: true), at: place, into: try Self.markedPNG())
            let (_, final) = try IncrementalDecodingTests.feed(data, chunkSize: chunkSize)
            #expect(final.orientation == .leftMirrored)
            #expect(final.image == (try PNGDecoder().decode(data)).image)
            try Self.expectUpright(final.image, orientation: 5, "chunks of \(chunkSize)")
        }
    }

    @Test func interlacedPreviewsAreTurnedLikeTheFinalImage() throws {
        let interlaced = SyntheticPNG.encode(Self.marked, colorType: .rgb, interlaced: true)
        let data = PNGChunks.insertingEXIf(EXIFSegment.tiff(orientation: 6, bigEndian: true), into: interlaced)
        let (previews, final) = try IncrementalDecodingTests.feed(data, chunkSize: 256)
        #expect(!previews.isEmpty)
        #expect(previews.allSatisfy { $0.width == 32 && $0.height == 64 })
        try Self.expectUpright(final.image, orientation: 6)
    }

    /// eXIf data that must count as no orientation, each with what is wrong with it.
    static let malformed: [(String, [UInt8])] = {
        let good = EXIFSegment.tiff(orientation: 6, bigEndian: true)
        func patched(_ offset: Int, _ bytes: [UInt8]) -> [UInt8] {
            var copy = good
            copy.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            return copy
        }
        // 65 535 entries declared, one there, and it is ImageWidth (0x0100).
        let hugeCount = patched(8, [0xFF, 0xFF, 0x01, 0x00])
        return [
            ("empty", []),
            ("one byte", [0x4D]),
            ("a TIFF header cut short", Array(good.prefix(6))),
            ("IFD0 cut short", Array(good.prefix(14))),
            ("the orientation's value cut short", Array(good.prefix(19))),
            ("an unknown byte order", patched(0, [0x4D, 0x49])),
            ("a bad TIFF magic number", patched(2, [0, 43])),
            ("IFD0 beyond the end", patched(4, [0, 0, 0x10, 0])),
            ("IFD0 at the largest offset", patched(4, [0xFF, 0xFF, 0xFF, 0xFF])),
            ("a huge entry count, none of the entries that fit the orientation", hugeCount),
            ("a huge entry count, the block cut after the first entry", Array(hugeCount.prefix(22))),
            ("no orientation entry", patched(10, [0x01, 0x00])),
            ("the orientation as a LONG", patched(12, [0, 4])),
            ("orientation 0", patched(18, [0, 0])),
            ("orientation 9", patched(18, [0, 9])),
            ("orientation 65535", patched(18, [0xFF, 0xFF])),
            ("JPEG's identifier and nothing else", Array("Exif".utf8) + [0, 0]),
            ("random bytes", (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }),
        ]
    }()

    @Test(arguments: malformed.indices)
    func malformedEXIfDecodesUnrotated(_ index: Int) throws {
        let (problem, exif) = Self.malformed[index]
        for place in [PNGChunks.Place.afterHeader, .beforeEnd] {
            let decoded = try PNGDecoder().decode(PNGChunks.insertingEXIf(exif, at: place, into: Self.markedPNG()))
            #expect(decoded.orientation == .up, "\(problem)")
            #expect(decoded.image == Self.marked, "\(problem)")
            #expect(decoded.isClean, "\(problem)")
        }
    }

    /// As in a JPEG (the reader is shared) and as browsers read it: the entries that fit are
    /// read, whatever count IFD0 declares.
    @Test func anOrientationEntryThatFitsIsReadWhateverCountIFD0Declares() throws {
        var exif = EXIFSegment.tiff(orientation: 6, bigEndian: true)
        exif.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        let decoded = try PNGDecoder().decode(PNGChunks.insertingEXIf(exif, into: Self.markedPNG()))
        #expect(decoded.orientation == .right)
    }

    @Test func eXIfWithABadCRCIsIgnoredAndReported() throws {
        let chunk = PNGChunks.chunk("eXIf", EXIFSegment.tiff(orientation: 6, bigEndian: true), crc: 0x1234_5678)
        let decoded = try PNGDecoder().decode(PNGChunks.inserting(chunk, at: .afterHeader, into: Self.markedPNG()))
        #expect(decoded.orientation == .up)
        #expect(decoded.image == Self.marked)
        #expect(!decoded.isClean)
    }

    @Test func unknownAncillaryChunksAreStillSkippedCleanly() throws {
        let chunk = PNGChunks.chunk("raNd", [1, 2, 3, 4, 5])
        let decoded = try PNGDecoder().decode(PNGChunks.inserting(chunk, at: .afterHeader, into: Self.markedPNG()))
        #expect(decoded.image == Self.marked)
        #expect(decoded.isClean)
    }

    @Test func unknownCriticalChunksStillFailTheDecode() throws {
        let chunk = PNGChunks.chunk("RAND", [1, 2, 3])
        #expect(throws: ImageDecodingError.self) {
            try PNGDecoder().decode(PNGChunks.inserting(chunk, at: .afterHeader, into: Self.markedPNG()))
        }
    }
}
