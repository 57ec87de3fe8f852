import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// libwebp's own conformance files: every decode equals dwebp's output byte for byte.
@Suite("WebP conformance (libwebp-test-data)", .requiresCorpus("webp"))
struct WebPConformanceTests {
    static let folder = "webp/libwebp-test-data"

    /// `libwebp_tests.md5`: "<md5>  <file>.webp.<ppm|pam|pgm|bmp|tiff>" per line.
    static let referenceSums: [String: String] = {
        guard let text = try? String(decoding: TestCorpus.data("\(folder)/libwebp_tests.md5"), as: UTF8.self) else {
            return [:]
        }
        var sums: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { sums[String(fields[1])] = String(fields[0]) }
        }
        return sums
    }()

    static var filesWithSums: [String] {
        ((try? TestCorpus.files(in: folder, withExtension: "webp")) ?? []).filter { referenceSums["\($0).ppm"] != nil }
    }

    /// The RGB output (dwebp -ppm) of every file the md5 list covers.
    @Test(arguments: filesWithSums)
    func rgbOutputMatchesDwebpsPPM(_ name: String) throws {
        let decoded = try WebPDecoder().decode(TestCorpus.data("\(Self.folder)/\(name)"))
        #expect(
            try md5Hex(NetPBMWriter.ppm(decoded.image)) == Self.referenceSums["\(name).ppm"],
            "\(name): \(decoded.image)")
        #expect(decoded.isClean)
    }

    /// The RGBA output (dwebp -pam) of every file the md5 list covers: alpha matches too.
    @Test(arguments: filesWithSums)
    func rgbaOutputMatchesDwebpsPAM(_ name: String) throws {
        let decoded = try WebPDecoder().decode(TestCorpus.data("\(Self.folder)/\(name)"))
        #expect(
            try md5Hex(NetPBMWriter.pam(decoded.image)) == Self.referenceSums["\(name).pam"],
            "\(name): \(decoded.image)")
    }

    /// lossless_vec_1_* decode to grid.pam and lossless_vec_2_* to peak.pam (lossless_vec_list.txt),
    /// lossless_color_transform.webp to its .pam: compared byte for byte.
    @Test(
        arguments: (0..<16).map { "lossless_vec_1_\($0)" } + (0..<16).map { "lossless_vec_2_\($0)" } + [
            "lossless_color_transform"
        ])
    func losslessVectorEqualsItsReferencePAM(_ name: String) throws {
        let reference = name.hasPrefix("lossless_vec_1") ? "grid" : name.hasPrefix("lossless_vec_2") ? "peak" : name
        let decoded = try WebPDecoder().decode(TestCorpus.data("\(Self.folder)/\(name).webp"))
        #expect(NetPBMWriter.pam(decoded.image) == (try TestCorpus.data("\(Self.folder)/\(reference).pam")))
    }

    @Test func theMD5ListCoversNinetySixFiles() {
        #expect(Self.filesWithSums.count == 96)
    }
}
