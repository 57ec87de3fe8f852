import CometTestSupport
import Foundation
import Testing

@testable import Imaging

/// HEICDecoder against heif-convert's decodes of files made from the corpus photos by
/// scripts/heic-jxl-fixtures (8 and 10 bits, alpha, grey, a grid, ICC and nclx colour, irot and
/// imir, an EXIF orientation, damaged copies), never against a snapshot of Comet's output.
@Suite("HEIC decoding", .requiresHEICJXLFixtures)
struct HEICDecoderTests {
    static let fixtures = HEICJXLFixtures.current
    static var decodable: [HEICJXLFixtures.Case] { fixtures.cases(format: "heic", expect: "decode") }

    func decode(_ name: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> DecodedImage {
        try HEICDecoder().decode(Self.fixtures.data(name), options: options)
    }

    func limited(_ change: (inout ImageDecodingLimits) -> Void) -> ImageDecodingOptions {
        var options = ImageDecodingOptions()
        change(&options.limits)
        return options
    }

    @Test("every generated file is recognised as HEIC", arguments: decodable)
    func isRecognised(_ fixture: HEICJXLFixtures.Case) throws {
        #expect(AssetType(try Self.fixtures.data(fixture.file)) == .heic)
    }

    @Test("the default registry decodes every file as heif-convert does", arguments: decodable)
    func matchesHeifConvert(_ fixture: HEICJXLFixtures.Case) throws {
        let decoded = try ImageDecoderRegistry.default.decode(Self.fixtures.data(fixture.file))
        #expect(decoded.type == .heic)
        #expect(decoded.image.width == fixture.width && decoded.image.height == fixture.height)
        #expect(decoded.orientation.rawValue == fixture.orientation)
        #expect(decoded.colorHandling.token == fixture.colour)
        #expect(decoded.isClean)
        #expect(try Self.fixtures.largestDifference(decoded.image, fixture.reference!) <= fixture.tolerance)
    }

    @Test(
        "keeping the original colours keeps libheif's numbers and the profile",
        arguments: decodable.filter { $0.raw != nil })
    func keepsOriginalColors(_ fixture: HEICJXLFixtures.Case) throws {
        let decoded = try decode(fixture.file, options: ImageDecodingOptions(keepsOriginalColors: true))
        #expect(decoded.colorHandling.token == "kept")
        #expect(decoded.image.colorProfile != nil)
        #expect(try Self.fixtures.largestDifference(decoded.image, fixture.raw!) <= fixture.tolerance)
    }

    @Test func aP3ProfileIsConvertedToSRGB() throws {
        let decoded = try decode("p3-icc.heic")
        guard case .converted = decoded.colorHandling else {
            Issue.record("\(decoded.colorHandling)")
            return
        }
        #expect(decoded.image.colorProfile == nil)
        #expect(try Self.fixtures.largestDifference(decoded.image, "p3-icc.heic.raw.ppm") > 10)
    }

    @Test func anNCLXBoxIsConvertedLikeTheSameICCProfile() throws {
        let nclx = try decode("p3-nclx.heic").image
        #expect(try Self.fixtures.largestDifference(nclx, "p3-nclx.heic.ref.ppm") <= 2)
        #expect(
            try decode("p3-nclx.heic", options: ImageDecodingOptions(keepsOriginalColors: true)).image.colorProfile
                != nil)
    }

    /// irot.heic is exif6.heic (stored sideways, EXIF orientation 6) with an irot property that
    /// turns it upright: libheif turns it once, and the EXIF orientation is not applied on top.
    @Test func irotIsAppliedOnceAndTheEXIFOrientationNotOnTop() throws {
        let stored = try decode("exif6.heic")
        let turned = try decode("irot.heic")
        #expect(turned.orientation == .up)
        #expect(turned.image.width == 256 && turned.image.height == 192)
        #expect(turned.image == stored.image.applying(.right))
    }

    @Test func anEXIFOrientationAloneLeavesTheImageAsStored() throws {
        let decoded = try decode("exif6.heic")
        #expect(decoded.orientation == .up)
        #expect(decoded.image.width == 192 && decoded.image.height == 256)
    }

    @Test func theSourceSizeIsTheCodedImageBeforeItsRotation() throws {
        let decoded = try decode("irot.heic")
        #expect(decoded.sourceWidth == 192 && decoded.sourceHeight == 256)
    }

    @Test func libheifAppliesTheTransformationsWhateverAppliesOrientationSays() throws {
        let decoded = try decode("irot.heic", options: ImageDecodingOptions(appliesOrientation: false))
        #expect(decoded.orientation == .up)
        #expect(decoded.image == (try decode("irot.heic")).image)
    }

    @Test func aGridImageDecodesAtItsOutputSize() throws {
        let decoded = try decode("odd-size.heic")
        #expect(decoded.image.width == 255 && decoded.image.height == 191)
    }

    @Test func moreThreadsDecodeTheSameImage() throws {
        let data = try Self.fixtures.data("odd-size.heic")
        #expect(try HEICDecoder(threadCount: 2).decode(data).image == (try decode("odd-size.heic")).image)
    }

    @Test func theDecoderChecksLimitsFromTheBoxes() {
        #expect(HEICDecoder().checksLimitsBeforeDecoding)
    }

    @Test func aSmallMaxDimensionIsTooLargeWithTheDeclaredSize() throws {
        #expect {
            _ = try decode("plain.heic", options: limited { $0.maxDimension = 100 })
        } throws: { error in
            guard case .tooLarge(256, 192, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    @Test func aSmallMaxSourcePixelCountIsTooLargeWithTheCodedSize() throws {
        #expect {
            _ = try decode("irot.heic", options: limited { $0.maxSourcePixelCount = 1000 })
        } throws: { error in
            guard case .tooLarge(192, 256, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("source pixel count")
        }
    }

    /// plain.heic with its `ispe` box patched to declare `width`×`height`.
    static func declaring(width: UInt32, height: UInt32) throws -> Data {
        var bytes = [UInt8](try fixtures.data("plain.heic"))
        let tag = Array("ispe".utf8)
        let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        bytes.replaceSubrange(
            (at + 8)..<(at + 16),
            with: withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init))
        return Data(bytes)
    }

    /// Over maxDimension: libheif's own limit (set from ours) refuses it while reading the boxes.
    @Test func aDeclared100000SquaredIsTooLargeAtOnce() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.declaring(width: 100_000, height: 100_000))
        } throws: { error in
            guard case .tooLarge(100_000, 100_000, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    /// Within maxDimension but over maxSourcePixelCount: our check, before any HEVC decoding.
    @Test func aDeclared60000SquaredIsTooLargeBeforeDecoding() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.declaring(width: 60_000, height: 60_000))
        } throws: { error in
            guard case .tooLarge(60_000, 60_000, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("source pixel count")
        }
    }

    /// Within every size limit (8192² is the default maxPixelCount) but its planes and their RGB
    /// conversion need far more than 256 MiB: refused from the boxes, before libheif decodes.
    @Test func aDeclared8192SquaredIsRefusedForItsWorkingMemory() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.declaring(width: 8192, height: 8192))
        } throws: { error in
            guard case .tooLarge(8192, 8192, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("working-memory limit of \(256 << 20) bytes")
        }
    }

    @Test func aFileThatDecodesByDefaultIsRefusedUnderASmallerWorkingMemoryLimit() throws {
        #expect {
            _ = try decode("plain.heic", options: limited { $0.maxDecoderMemory = 4 << 20 })
        } throws: { error in
            guard case .tooLarge(256, 192, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("working-memory limit of \(4 << 20) bytes")
        }
    }

    @Test(
        "a damaged file is an error with libheif's message", arguments: fixtures.cases(format: "heic", expect: "error"))
    func damagedFileIsAnError(_ fixture: HEICJXLFixtures.Case) throws {
        #expect {
            _ = try ImageDecoders.decode(Self.fixtures.data(fixture.file))
        } throws: { error in
            guard case .corrupt(.heic, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("libheif")
        }
    }

    @Test(
        "damaged coded data decodes or fails, never crashes",
        arguments: fixtures.cases(format: "heic", expect: "no-crash"))
    func damagedDataNeverCrashes(_ fixture: HEICJXLFixtures.Case) throws {
        do {
            let decoded = try ImageDecoders.decode(Self.fixtures.data(fixture.file))
            #expect(decoded.image.width == 256 && decoded.image.height == 192)
        } catch is ImageDecodingError {}
    }

    @Test func everyTruncationIsAnError() throws {
        let data = try Self.fixtures.data("alpha.heic")
        for length in stride(from: 1, to: data.count, by: 997) {
            #expect(throws: ImageDecodingError.self, "\(length) bytes") {
                _ = try HEICDecoder().decode(data.prefix(length))
            }
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let files = try ["irot-imir.heic", "alpha.heic", "odd-size.heic"].map { try Self.fixtures.data($0) }
        decodeWithFlippedBytes(files, count: 40, seed: 0x4845_4943, prefix: 1000) { _ = try HEICDecoder().decode($0) }
    }

    @Test func anIncrementalDecoderCollectsTheFileAndDecodesItAtTheEnd() throws {
        let data = try Self.fixtures.data("plain.heic")
        let decoder = IncrementalImageDecoder()
        for start in stride(from: 0, to: data.count, by: 4096) {
            try decoder.append(data[start..<min(data.count, start + 4096)])
        }
        #expect(decoder.type == .heic)
        #expect(try decoder.finish().image == (try decode("plain.heic")).image)
    }
}
