import CometTestSupport
import Foundation
import Testing
@testable import Imaging

@Suite("PNG decoding", .requiresCorpus("pngsuite", "pngsuite-reference", "png-real"))
struct PNGDecoderTests {
    /// Every valid PngSuite image decodes to exactly the reference RGBA (16-bit files within 1,
    /// the rounding the references' README admits to).
    @Test(
        arguments: try TestCorpus.files(in: "pngsuite", withExtension: "png").filter {
            !$0.hasPrefix("x") && $0 != "PngSuite.png"
        })
    func decodesPngSuiteImageExactly(_ name: String) throws {
        let base = String(name.dropLast(4))
        // The references hold the files' numbers: most PngSuite files carry a gAMA chunk (1.0
        // for most), which default decoding applies as browsers do.
        let decoded = try PNGDecoder().decode(
            TestCorpus.data("pngsuite/\(name)"), options: ImageDecodingOptions(keepsOriginalColors: true))
        let referenceName =
            FileManager.default.fileExists(atPath: TestCorpus.url("pngsuite-reference/json/\(base)_to8.json").path)
            ? "\(base)_to8" : base
        var reference = try JSONDecoder().decode(
            [Int].self, from: TestCorpus.data("pngsuite-reference/json/\(referenceName).json"))
        // A few 16-bit files have only 16-bit references: bring them to 8 bits the usual way.
        let isSixteenBit = reference.contains { $0 > 255 }
        if isSixteenBit { reference = reference.map { ($0 * 255 + 32767) / 65535 } }
        let pixels = decoded.image.packedBytes.map(Int.init)
        #expect(pixels.count == reference.count, "\(name): \(decoded.image) vs \(reference.count / 4) reference pixels")
        guard pixels.count == reference.count else { return }
        let tolerance = referenceName.hasSuffix("_to8") || isSixteenBit ? 1 : 0
        let worst = zip(pixels, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance, "\(name): largest channel difference \(worst)")
        #expect(decoded.isClean, "\(name): \(decoded.warnings)")
    }

    /// Every corrupt PngSuite file (x*.png) is refused with a corrupt-data error and a message.
    @Test(arguments: try TestCorpus.files(in: "pngsuite", withExtension: "png").filter { $0.hasPrefix("x") })
    func rejectsCorruptPngSuiteFile(_ name: String) throws {
        let data = try TestCorpus.data("pngsuite/\(name)")
        #expect {
            _ = try ImageDecoders.decode(data)
        } throws: { error in
            guard let error = error as? ImageDecodingError else { return false }
            switch error {
            case .corrupt(_, let reason): return !reason.isEmpty
            case .unrecognizedFormat: return true  // x*: signature damaged
            default: return false
            }
        }
    }

    @Test func decodesRealWorldPNGs() throws {
        for name in try TestCorpus.files(in: "png-real", withExtension: "png") {
            let decoded = try PNGDecoder().decode(TestCorpus.data("png-real/\(name)"))
            #expect(decoded.image.width > 0 && decoded.image.height > 0, "\(name)")
        }
    }

    @Test func opaqueFileGivesOpaqueImageAndAlphaFileDoesNot() throws {
        #expect(try PNGDecoder().decode(TestCorpus.data("pngsuite/basn2c08.png")).image.isOpaque)
        #expect(try !PNGDecoder().decode(TestCorpus.data("pngsuite/basn6a08.png")).image.isOpaque)
        #expect(try !PNGDecoder().decode(TestCorpus.data("pngsuite/tbbn3p08.png")).image.isOpaque)  // tRNS
    }

    @Test func truncatedFileIsAnErrorNotAPartialImage() throws {
        let data = try TestCorpus.data("png-real/kodim23.png")
        for length in [8, 33, 100, data.count / 2, data.count - 13] {
            #expect(throws: ImageDecodingError.self, "truncated at \(length)") {
                _ = try PNGDecoder().decode(data.prefix(length))
            }
        }
    }
}
