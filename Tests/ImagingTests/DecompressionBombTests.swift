import Foundation
import Testing
@testable import Imaging

/// Small files that expand enormously: rejected (or decoded) within bounded memory and time,
/// with clear errors. The PNGs are made by Fixtures/bombs/make-bombs.py (zlib at level 9); the
/// JPEG is built here from an encoder's progressive output.
@Suite("Decompression bombs", .timeLimit(.minutes(10)))
struct DecompressionBombTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/bombs/\(name)"))
    }

    @Test func pngExpandingToMorePixelsThanTheLimitIsRejectedFromItsHeader() throws {
        let data = try Self.fixture("huge-zero-gray.png")  // 67 KB → 16384 × 4200
        #expect(data.count < 100_000)
        #expect {
            try ImageDecoders.decode(data)
        } throws: { error in
            guard case ImageDecodingError.tooLarge(width: 16384, height: 4200, _) = error else { return false }
            return true
        }
    }

    @Test func pngWithAnEndlessImageDataStreamDecodesOnlyTheImage() throws {
        // 4 bytes of image, then 64 MiB of zeros in the same zlib stream: libpng stops inflating
        // when the rows are complete, so this costs the 1 × 1 image, not 64 MiB.
        let result = try ImageDecoders.decode(try Self.fixture("idat-overflow.png"))
        #expect(result.image.width == 1 && result.image.height == 1)
    }

    @Test(arguments: ["ztxt-bomb.png", "iccp-bomb.png"])
    func pngWithAnAncillaryChunkBombSkipsTheChunk(name: String) throws {
        // A text or ICC chunk that inflates to 64 MiB is over libpng's 8 MiB chunk limit: it is
        // dropped (reported as a warning) and the pixels decode.
        let result = try ImageDecoders.decode(try Self.fixture(name))
        #expect(result.image.width == 8 && result.image.height == 8)
        #expect(result.image.pixel(x: 1, y: 0) == RGBA8(red: 8, green: 8, blue: 8))
    }

    @Test func jpegWithThousandsOfScansIsRejectedAtTheScanLimit() throws {
        let data = Self.jpegRepeatingItsLastScan(times: 2_000)
        #expect {
            try ImageDecoders.decode(data)
        } throws: { error in
            guard case let ImageDecodingError.tooLarge(width: 64, height: 48, limit) = error else { return false }
            return limit == "the limit of 256 scans"
        }
    }

    @Test func jpegWithThousandsOfScansIsRejectedIncrementallyToo() throws {
        let data = Self.jpegRepeatingItsLastScan(times: 2_000)
        let decoder = IncrementalImageDecoder()
        #expect(throws: ImageDecodingError.self) {
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + 4_096)
                try decoder.append(data[offset..<end])
                _ = try decoder.makePreview()
                offset = end
            }
            _ = try decoder.finish()
        }
    }

    @Test func jpegWithScansUnderTheLimitDecodes() throws {
        // The same construction with a few repeats stays under the limit (the control case).
        let result = try ImageDecoders.decode(Self.jpegRepeatingItsLastScan(times: 3))
        #expect(result.image.width == 64)
    }

    /// A progressive JPEG whose final scan (header and entropy-coded data) is repeated `times`
    /// times before EOI: each repeat costs the decoder a pass, the file grows only a little.
    static func jpegRepeatingItsLastScan(times: Int) -> Data {
        var pixels: [UInt8] = []
        for index in 0..<(64 * 48) {
            pixels += [UInt8(index % 251), UInt8(index % 13 * 19), 90, 255]
        }
        let image = Image(width: 64, height: 48, isOpaque: true, bytes: pixels)
        let bytes = [UInt8](try! ImageEncoders.jpeg(image, quality: 0.9, progressive: true))
        // The last SOS marker (FF DA) starts the final scan; it runs to the EOI at the end.
        let end = bytes.count - 2
        var lastScan = end - 1
        while !(bytes[lastScan] == 0xFF && bytes[lastScan + 1] == 0xDA) { lastScan -= 1 }
        var result = Array(bytes[..<end])
        for _ in 0..<times { result += bytes[lastScan..<end] }
        result += [0xFF, 0xD9]
        return Data(result)
    }
}
