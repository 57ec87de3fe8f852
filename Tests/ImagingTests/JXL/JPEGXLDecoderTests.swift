import CometTestSupport
import Foundation
import Testing

@testable import Imaging

/// JPEGXLDecoder against djxl's decodes of files made from the corpus photos by
/// scripts/heic-jxl-fixtures (lossless, lossy XYB, alpha, grey, P3 and other ICC originals, an
/// orientation, an animation, damaged copies), never against a snapshot of Comet's output.
@Suite("JPEG XL decoding", .requiresHEICJXLFixtures)
struct JPEGXLDecoderTests {
    static let fixtures = HEICJXLFixtures.current
    static var decodable: [HEICJXLFixtures.Case] { fixtures.cases(format: "jxl", expect: "decode") }

    func decode(_ name: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> DecodedImage {
        try JPEGXLDecoder().decode(Self.fixtures.data(name), options: options)
    }

    func limited(_ change: (inout ImageDecodingLimits) -> Void) -> ImageDecodingOptions {
        var options = ImageDecodingOptions()
        change(&options.limits)
        return options
    }

    @Test("every generated file is recognised as JPEG XL", arguments: decodable)
    func isRecognised(_ fixture: HEICJXLFixtures.Case) throws {
        #expect(AssetType(try Self.fixtures.data(fixture.file)) == .jpegXL)
    }

    @Test("the default registry decodes every file as djxl does", arguments: decodable)
    func matchesDjxl(_ fixture: HEICJXLFixtures.Case) throws {
        let decoded = try ImageDecoderRegistry.default.decode(Self.fixtures.data(fixture.file))
        #expect(decoded.type == .jpegXL)
        #expect(decoded.image.width == fixture.width && decoded.image.height == fixture.height)
        #expect(decoded.orientation.rawValue == fixture.orientation)
        #expect(decoded.colorHandling.token == fixture.colour)
        #expect(decoded.isClean)
        #expect(try Self.fixtures.largestDifference(decoded.image, fixture.reference!) <= fixture.tolerance)
    }

    @Test func aLosslessFileDecodesToExactlyTheSourceNumbers() throws {
        #expect(try Self.fixtures.largestDifference(try decode("lossless.jxl").image, "lossless.jxl.ref.ppm") == 0)
    }

    @Test(
        "keeping the original colours keeps libjxl's numbers and the profile",
        arguments: decodable.filter { $0.raw != nil })
    func keepsOriginalColors(_ fixture: HEICJXLFixtures.Case) throws {
        let decoded = try decode(fixture.file, options: ImageDecodingOptions(keepsOriginalColors: true))
        #expect(decoded.colorHandling.token == "kept")
        #expect(decoded.image.colorProfile != nil)
        #expect(try Self.fixtures.largestDifference(decoded.image, fixture.raw!) <= fixture.tolerance)
    }

    @Test(arguments: ["p3-lossy.jxl", "p3-lossless.jxl"])
    func aP3FileIsConvertedToSRGB(_ name: String) throws {
        let decoded = try decode(name)
        guard case .converted = decoded.colorHandling else {
            Issue.record("\(name): \(decoded.colorHandling)")
            return
        }
        #expect(decoded.image.colorProfile == nil)
        #expect(try Self.fixtures.largestDifference(decoded.image, "\(name).raw.ppm") > 10)
    }

    /// libjxl cannot convert XYB to an arbitrary ICC profile: it is asked for sRGB, which then
    /// needs no conversion, and there are no original numbers to keep.
    @Test func aLossyFileWithAnICCOriginalComesOutInSRGB() throws {
        let decoded = try decode("icc-lossy.jxl", options: ImageDecodingOptions(keepsOriginalColors: true))
        #expect(decoded.colorHandling.token == "srgb")
        #expect(decoded.image.colorProfile == nil)
        #expect(try Self.fixtures.largestDifference(decoded.image, "icc-lossy.jxl.ref.ppm") <= 1)
    }

    @Test func theOrientationIsReportedAndAppliedOnce() throws {
        let decoded = try decode("orientation.jxl")
        #expect(decoded.orientation == .right)
        #expect(decoded.image.width == 256 && decoded.image.height == 192)
        #expect(decoded.sourceWidth == 192 && decoded.sourceHeight == 256)
        #expect(try Self.fixtures.largestDifference(decoded.image, "orientation.jxl.ref.ppm") <= 1)
    }

    @Test func theOrientationCanBeLeftUnapplied() throws {
        let decoded = try decode("orientation.jxl", options: ImageDecodingOptions(appliesOrientation: false))
        #expect(decoded.orientation == .right)
        #expect(decoded.image.width == 192 && decoded.image.height == 256)
        #expect(
            try Self.fixtures.largestDifference(decoded.image.applying(.right), "orientation.jxl.ref.ppm") <= 1)
    }

    @Test func anAnimationDecodesItsFirstFrameOnly() throws {
        let decoded = try decode("animation.jxl", options: ImageDecodingOptions(decodesAnimation: true))
        #expect(decoded.animation == nil)
        #expect(try Self.fixtures.largestDifference(decoded.image, "animation.jxl.ref.ppm") == 0)
    }

    @Test func libjxlsThreadPoolDecodesTheSameImage() throws {
        let data = try Self.fixtures.data("lossy.jxl")
        #expect(try JPEGXLDecoder(threadCount: 2).decode(data).image == (try decode("lossy.jxl")).image)
    }

    @Test func theDecoderChecksLimitsFromTheHeader() {
        #expect(JPEGXLDecoder().checksLimitsBeforeDecoding)
    }

    @Test func aSmallMaxDimensionIsTooLargeWithTheDeclaredSize() throws {
        #expect {
            _ = try decode("alpha.jxl", options: limited { $0.maxDimension = 100 })
        } throws: { error in
            guard case .tooLarge(256, 192, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    @Test func aSmallMaxSourcePixelCountIsTooLargeWithTheStoredSize() throws {
        #expect {
            _ = try decode("orientation.jxl", options: limited { $0.maxSourcePixelCount = 1000 })
        } throws: { error in
            guard case .tooLarge(192, 256, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("source pixel count")
        }
    }

    /// A bare codestream that is only a header: the signature, a SizeHeader declaring
    /// `width`×`height` and all-default image metadata (ISO/IEC 18181-1, bits least significant
    /// first). libjxl reports the size from it; no frame follows.
    static func header(width: UInt32, height: UInt32) -> Data {
        var bits: [Bool] = []
        func write(_ value: UInt32, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
        /// U32(1 + u(9), 1 + u(13), 1 + u(18), 1 + u(30)): a 2-bit selector, then the value - 1.
        func size(_ value: UInt32) {
            let selector = [9, 13, 18, 30].firstIndex { value - 1 < UInt32(1) << $0 }!
            write(UInt32(selector), 2)
            write(value - 1, [9, 13, 18, 30][selector])
        }
        write(0, 1)  // div8: no
        size(height)
        write(0, 3)  // ratio 0: the width follows
        size(width)
        write(1, 1)  // ImageMetadata all_default
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            bytes.append(
                bits[start..<min(bits.count, start + 8)].enumerated().reduce(0) { $0 | ($1.1 ? 1 << $1.0 : 0) })
        }
        return Data(bytes + [UInt8](repeating: 0, count: 16))
    }

    @Test func aHeaderAloneGivesItsSizeToTheLimits() throws {
        #expect {
            _ = try JPEGXLDecoder().decode(
                Self.header(width: 300, height: 200), options: limited { $0.maxDimension = 100 })
        } throws: { error in
            guard case .tooLarge(300, 200, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    /// 16384² is within JPEG XL's level 5 (2^28 pixels) but over the default maxPixelCount.
    @Test func aDeclared16384SquaredIsTooLargeAtOnce() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.header(width: 16384, height: 16384))
        } throws: { error in
            guard case .tooLarge(16384, 16384, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    /// Within every size limit (8192² is the default maxPixelCount), but a lossy (XYB, the
    /// header's default) image that size needs far more than 256 MiB: refused from the header.
    @Test func aDeclared8192SquaredIsRefusedForItsWorkingMemory() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.header(width: 8192, height: 8192))
        } throws: { error in
            guard case .tooLarge(8192, 8192, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("working-memory limit of \(256 << 20) bytes")
        }
    }

    @Test func aFileThatDecodesByDefaultIsRefusedUnderASmallerWorkingMemoryLimit() throws {
        #expect {
            _ = try JPEGXLDecoder().decode(
                Self.fixtures.data("lossless.jxl"), options: limited { $0.maxDecoderMemory = 4 << 20 })
        } throws: { error in
            guard case .tooLarge(let width, let height, let limit) = error as? ImageDecodingError else { return false }
            return width > 0 && height > 0 && limit.contains("working-memory limit of \(4 << 20) bytes")
        }
    }

    @Test("a damaged file is an error", arguments: fixtures.cases(format: "jxl", expect: "error"))
    func damagedFileIsAnError(_ fixture: HEICJXLFixtures.Case) throws {
        #expect {
            _ = try ImageDecoders.decode(Self.fixtures.data(fixture.file))
        } throws: { error in
            guard case .corrupt(.jpegXL, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("libjxl")
        }
    }

    @Test(
        "damaged coded data decodes or fails, never crashes",
        arguments: fixtures.cases(format: "jxl", expect: "no-crash"))
    func damagedDataNeverCrashes(_ fixture: HEICJXLFixtures.Case) throws {
        do {
            let decoded = try ImageDecoders.decode(Self.fixtures.data(fixture.file))
            #expect(decoded.image.width == 256 && decoded.image.height == 192)
        } catch is ImageDecodingError {}
    }

    @Test func everyTruncationIsAnError() throws {
        let data = try Self.fixtures.data("alpha.jxl")
        for length in stride(from: 1, to: data.count, by: 379) {
            #expect(throws: ImageDecodingError.self, "\(length) bytes") {
                _ = try JPEGXLDecoder().decode(data.prefix(length))
            }
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let files = try ["lossy.jxl", "alpha.jxl", "orientation.jxl"].map { try Self.fixtures.data($0) }
        decodeWithFlippedBytes(files, count: 40, seed: 0x4A58_4C20, prefix: 2000) { _ = try JPEGXLDecoder().decode($0) }
    }
}
