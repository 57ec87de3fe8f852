import Foundation
import Testing
import CometTestSupport
@testable import Imaging

/// Hostile bytes: bit flips, byte stores and truncations of real files must give an image or a
/// clear error — never a crash, a hang or a clean decode of a cut file.
@Suite("Mutated input")
struct MutationTests {
    static let seeds = [
        "libjpeg-turbo-testimages/testorig.jpg",
        "libjpeg-turbo-testimages/derived/testorig-progressive.jpg",
        "libjpeg-turbo-testimages/derived/testorig-restart5blk.jpg",
        "libjpeg-turbo-testimages/derived/testorig-arith.jpg",
        "libjpeg-turbo-testimages/derived/testorig-gray.jpg",
        "pngsuite/basn6a08.png",
        "pngsuite/basi3p02.png",
        "pngsuite/basi0g16.png",
        "pngsuite/tbbn3p08.png",
        "pngsuite/basn2c16.png",
    ]

    static func mutate(_ original: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = original
        switch random.next() % 4 {
        case 0:  // flip a few bits
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let i = Int(random.next() % UInt64(bytes.count))
                bytes[i] ^= UInt8(1) << (random.next() % 8)
            }
        case 1:  // store interesting bytes
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let i = Int(random.next() % UInt64(bytes.count))
                bytes[i] = [0x00, 0xFF, 0x7F, 0x80, 0xD9, 0xDA, 0xC0][Int(random.next() % 7)]
            }
        case 2:  // truncate
            bytes = Array(bytes.prefix(1 + Int(random.next() % UInt64(bytes.count))))
        default:  // flip then truncate
            let i = Int(random.next() % UInt64(bytes.count))
            bytes[i] = ~bytes[i]
            bytes = Array(bytes.prefix(max(1, bytes.count - Int(random.next() % 200))))
        }
        // PNG chunks carry CRCs; half the time fix them so mutations reach the decoder proper.
        if random.next() % 2 == 0 { fixPNGChecksums(&bytes) }
        return bytes
    }

    /// Recomputes the CRC of every complete chunk of a PNG (no-op for other data).
    static func fixPNGChecksums(_ bytes: inout [UInt8]) {
        guard AssetType(bytes) == .png else { return }
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            guard length >= 0, offset + 12 + length <= bytes.count else { return }
            let crc = CRC32.checksum(bytes[(offset + 4)..<(offset + 8 + length)])
            bytes[offset + 8 + length] = UInt8(crc >> 24)
            bytes[offset + 9 + length] = UInt8(crc >> 16 & 0xFF)
            bytes[offset + 10 + length] = UInt8(crc >> 8 & 0xFF)
            bytes[offset + 11 + length] = UInt8(crc & 0xFF)
            offset += 12 + length
        }
    }

    /// Files the tests write themselves (libjpeg's and libpng's encoders, ``SyntheticPNG``), so a
    /// clone without the corpus still mutates one of each kind.
    static let generatedSeeds: [String: @Sendable () throws -> Data] = [
        "baseline.jpg": { try GeneratedFiles.baselineJPEG() },
        "progressive.jpg": { try GeneratedFiles.progressiveJPEG() },
        "rgba.png": { try EncodingTests.gradient(width: 40, height: 30, alpha: true).pngData() },
        "interlaced-grey.png": {
            SyntheticPNG.encode(GeneratedFiles.photo(width: 24, height: 24), colorType: .gray, interlaced: true)
        },
    ]

    @Test(.requiresCorpus("libjpeg-turbo-testimages", "pngsuite"), arguments: seeds)
    func mutatedFilesNeverCrashTheOneShotDecoders(_ path: String) throws {
        try Self.mutateAndDecodeOneShot(
            TestCorpus.data(path), seed: UInt64(path.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
    }

    @Test(.requiresCorpus("libjpeg-turbo-testimages", "pngsuite"), arguments: seeds)
    func mutatedFilesNeverCrashTheIncrementalDecoders(_ path: String) throws {
        try Self.mutateAndDecodeIncrementally(TestCorpus.data(path))
    }

    @Test(arguments: generatedSeeds.keys.sorted())
    func mutatedGeneratedFilesNeverCrashEitherDecoder(_ name: String) throws {
        let generate = try #require(Self.generatedSeeds[name])
        let data = try generate()
        Self.mutateAndDecodeOneShot(data, seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        Self.mutateAndDecodeIncrementally(data)
    }

    /// 400 mutations of `data`, each decoded in one go: an image or an error with a message.
    static func mutateAndDecodeOneShot(_ data: Data, seed: UInt64) {
        let original = [UInt8](data)
        var random = SplitMix64(seed: seed)
        var outcomes = (decoded: 0, failed: 0)
        for _ in 0..<400 {
            let mutated = Self.mutate(original, using: &random)
            do {
                let result = try ImageDecoders.decode(Data(mutated))
                #expect(result.image.width > 0)
                outcomes.decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.failed += 1
            }
        }
        #expect(outcomes.decoded + outcomes.failed == 400)
    }

    /// 100 mutations of `data`, each fed to the incremental decoder in random chunks with a
    /// preview after each: no crash, and every error has a message.
    static func mutateAndDecodeIncrementally(_ data: Data) {
        let original = [UInt8](data)
        var random = SplitMix64(seed: 0xC0FFEE ^ UInt64(original.count))
        for _ in 0..<100 {
            let mutated = Data(Self.mutate(original, using: &random))
            let decoder = IncrementalImageDecoder()
            var offset = 0
            do {
                while offset < mutated.count {
                    let end = min(mutated.count, offset + 1 + Int(random.next() % 700))
                    try decoder.append(mutated[offset..<end])
                    _ = try decoder.makePreview()
                    offset = end
                }
                _ = try decoder.finish()
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func everyTruncationOfAPNGFailsCleanly() throws {
        let data = GeneratedFiles.interlacedPNG()
        for length in 1..<data.count {
            #expect(throws: ImageDecodingError.self, "cut at \(length)") {
                _ = try PNGDecoder().decode(data.prefix(length))
            }
        }
    }
}
