import CometTestSupport
import Foundation
import Testing

@testable import Imaging

/// Decoding converts every profile kind to sRGB, checked against Little CMS's own conversion of
/// the same file (scripts/colour-fixtures), never against a snapshot of Comet's output.
@Suite(.requiresColorFixtures)
struct ColorFixtureTests {
    static let fixtures = ColorFixtures.current

    static var cases: [ColorFixtures.Case] { fixtures.cases }
    static var convertedCases: [ColorFixtures.Case] { cases.filter { $0.expectation == "converted" } }
    static var malformedCases: [ColorFixtures.Case] { cases.filter { $0.expectation == "warning-unchanged" } }
    static var rgbProfileCases: [ColorFixtures.Case] {
        cases.filter { ($0.kind == "icc-rgb" || $0.kind == "nclx" || $0.kind == "png-gama-chrm") && $0.raw != nil }
    }

    func decode(_ name: String, keepsOriginalColors: Bool = false) throws -> DecodedImage {
        try ImageDecoderRegistry.default.decode(
            Self.fixtures.data(name), options: ImageDecodingOptions(keepsOriginalColors: keepsOriginalColors))
    }

    /// Largest channel difference (alpha included) between a decoded image and a fixture.
    func difference(_ image: Image, _ name: String) throws -> Int {
        let expected = try Self.fixtures.pixels(name)
        #expect(image.width == expected.width && image.height == expected.height)
        let actual = image.packedBytes
        var worst = 0
        for i in 0..<min(actual.count, expected.rgba.count) {
            worst = max(worst, abs(Int(actual[i]) - Int(expected.rgba[i])))
        }
        return worst
    }

    @Test("every manifest case matches its Little CMS reference", arguments: cases)
    func matchesReference(_ fixture: ColorFixtures.Case) throws {
        let decoded = try decode(fixture.file)
        #expect(decoded.isClean, "a colour problem never marks the pixels as made up")
        #expect(decoded.image.colorProfile == nil, "sRGB output carries no profile")
        #expect(try difference(decoded.image, fixture.reference) <= fixture.tolerance)
    }

    @Test("a converted image differs from the file's numbers", arguments: convertedCases.filter { $0.raw != nil })
    func conversionChangesNumbers(_ fixture: ColorFixtures.Case) throws {
        let decoded = try decode(fixture.file)
        #expect(try difference(decoded.image, fixture.raw!) > fixture.tolerance)
        guard case .converted = decoded.colorHandling else {
            Issue.record("\(fixture.file): \(decoded.colorHandling)")
            return
        }
    }

    @Test("a malformed profile decodes unconverted, with a colour warning", arguments: malformedCases)
    func malformedProfileWarns(_ fixture: ColorFixtures.Case) throws {
        let decoded = try decode(fixture.file)
        #expect(decoded.colorWarning != nil)
        #expect(decoded.isClean)
        #expect(try difference(decoded.image, fixture.raw ?? fixture.reference) <= fixture.tolerance)
    }

    @Test("a malformed profile never fails a strict decode")
    func strictDecodingIgnoresColourProblems() throws {
        for fixture in Self.malformedCases {
            let options = ImageDecodingOptions(isStrict: true)
            let decoded = try ImageDecoderRegistry.default.decode(Self.fixtures.data(fixture.file), options: options)
            #expect(decoded.colorWarning != nil, "\(fixture.file)")
        }
    }

    @Test("sRGB by content is left alone, whatever its name", arguments: cases.filter { $0.kind == "srgb-equivalent" })
    func sRGBEquivalentIsSkipped(_ fixture: ColorFixtures.Case) throws {
        let decoded = try decode(fixture.file)
        guard case .sRGB = decoded.colorHandling else {
            Issue.record("\(fixture.file): \(decoded.colorHandling)")
            return
        }
        #expect(try difference(decoded.image, fixture.raw!) == 0)
    }

    @Test("keeping the original colours keeps the numbers and the profile", arguments: rgbProfileCases)
    func keepsOriginalNumbers(_ fixture: ColorFixtures.Case) throws {
        let decoded = try decode(fixture.file, keepsOriginalColors: true)
        #expect(try difference(decoded.image, fixture.raw!) <= 1)
        #expect(decoded.image.colorProfile != nil)
        guard case .kept = decoded.colorHandling else {
            Issue.record("\(fixture.file): \(decoded.colorHandling)")
            return
        }
    }

    @Test("grey and CMYK sources convert even when the original colours are kept")
    func greyAndCMYKAlwaysConvert() throws {
        for fixture in Self.cases where fixture.kind == "icc-gray" || fixture.kind == "icc-cmyk" {
            let decoded = try decode(fixture.file, keepsOriginalColors: true)
            #expect(decoded.image.colorProfile == nil, "\(fixture.file)")
            #expect(try difference(decoded.image, fixture.reference) <= fixture.tolerance, "\(fixture.file)")
        }
    }

    @Test("decode-time downsampling still converts")
    func downsampledDecodeConverts() throws {
        let full = try decode("p3.jpg").image
        let options = ImageDecodingOptions(downsampling: .maxPixelSize(full.width / 2))
        let half = try ImageDecoderRegistry.default.decode(Self.fixtures.data("p3.jpg"), options: options)
        guard case .converted = half.colorHandling else {
            Issue.record("\(half.colorHandling)")
            return
        }
        let raw = try ImageDecoderRegistry.default.decode(
            Self.fixtures.data("p3.jpg"),
            options: ImageDecodingOptions(downsampling: .maxPixelSize(full.width / 2), keepsOriginalColors: true))
        #expect(half.image.width == raw.image.width && half.image != raw.image.withColorProfile(nil))
    }

    @Test("incremental decoding converts as a one-shot decode does", arguments: convertedCases)
    func incrementalDecodeConverts(_ fixture: ColorFixtures.Case) throws {
        let data = try Self.fixtures.data(fixture.file)
        let oneShot = try decode(fixture.file)
        let decoder = IncrementalImageDecoder()
        for start in stride(from: 0, to: data.count, by: 4096) {
            try decoder.append(data[start..<min(start + 4096, data.count)])
            _ = try decoder.makePreview()
        }
        let final = try decoder.finish()
        #expect(final.image == oneShot.image)
        #expect(final.colorHandling == oneShot.colorHandling)
    }
}
