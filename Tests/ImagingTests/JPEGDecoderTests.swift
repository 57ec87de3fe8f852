import CometTestSupport
import Foundation
import Testing
@testable import Imaging

@Suite("JPEG decoding", .requiresCorpus("libjpeg-turbo-testimages", "sharp-photos"))
struct JPEGDecoderTests {
    /// The corpus JPEGs, except the giant one (JPEGLimitsTests) and the 12-bit one.
    static func testImages() throws -> [String] {
        try TestCorpus.files(in: "libjpeg-turbo-testimages", withExtension: "jpg").map {
            "libjpeg-turbo-testimages/\($0)"
        }
            + TestCorpus.files(in: "libjpeg-turbo-testimages/derived", withExtension: "jpg").map {
                "libjpeg-turbo-testimages/derived/\($0)"
            }
            + TestCorpus.files(in: "sharp-photos", withExtension: "jpg").filter { $0 != "giant-image.jpg" }.map {
                "sharp-photos/\($0)"
            }
    }
    static let twelveBit = "libjpeg-turbo-testimages/monkey12.jpg"

    /// Every JPEG of the corpus decodes; only the deliberately truncated one has warnings.
    @Test(arguments: try testImages().filter { $0 != twelveBit })
    func decodesCorpusJPEG(_ path: String) throws {
        let decoded = try JPEGDecoder().decode(TestCorpus.data(path))
        #expect(decoded.image.width > 0 && decoded.image.isOpaque)
        if path.contains("truncated") {
            #expect(!decoded.isClean, "a truncated file must be reported as concealed")
        } else {
            #expect(decoded.isClean, "\(path): \(decoded.warnings)")
        }
    }

    /// Debian's libjpeg-turbo is built for 8-bit samples: a 12-bit file is a clear
    /// "unsupported" error, not "corrupt".
    @Test func twelveBitJPEGIsReportedAsUnsupported() throws {
        #expect {
            _ = try JPEGDecoder().decode(TestCorpus.data(Self.twelveBit))
        } throws: { error in
            guard case .unsupportedFeature(.jpeg, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("12")
        }
    }

    /// testorig.ppm is libjpeg's reference decode of testorig.jpg. It was made by a libjpeg whose
    /// chroma upsampling rounds slightly differently, so a few samples differ by 3: measured
    /// here, max 3, mean 0.19, 0.2% of samples beyond ±2.
    @Test func baselineMatchesLibjpegReferenceWithinIDCTTolerance() throws {
        let decoded = try JPEGDecoder().decode(TestCorpus.data("libjpeg-turbo-testimages/testorig.jpg")).image
        let reference = try PortablePixmap.read(TestCorpus.data("libjpeg-turbo-testimages/testorig.ppm"))
        let difference = channelDifference(decoded, reference)
        let beyondTwo = zip(decoded.packedBytes, reference.packedBytes).filter { abs(Int($0) - Int($1)) > 2 }.count
        #expect(difference.max <= 3, "max \(difference.max)")
        #expect(difference.mean < 0.3, "mean \(difference.mean)")
        #expect(
            Double(beyondTwo) / Double(decoded.width * decoded.height * 3) < 0.005, "\(beyondTwo) samples beyond ±2")
    }

    @Test(arguments: [
        "testorig-progressive.jpg", "testorig-arith.jpg", "testorig-restart5blk.jpg", "testorig-optimized.jpg",
    ])
    func variantsOfTheSameImageDecodeAlike(_ name: String) throws {
        let baseline = try JPEGDecoder().decode(TestCorpus.data("libjpeg-turbo-testimages/testorig.jpg")).image
        let variant = try JPEGDecoder().decode(TestCorpus.data("libjpeg-turbo-testimages/derived/\(name)")).image
        #expect(channelDifference(baseline, variant).mean < 3)
    }

    @Test func grayscaleJPEGComesOutAsEqualRGB() throws {
        let image = try JPEGDecoder().decode(TestCorpus.data("libjpeg-turbo-testimages/derived/testorig-gray.jpg"))
            .image
        let pixel = image.pixel(x: image.width / 2, y: image.height / 2)
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue && pixel.alpha == 255)
    }

    @Test func cmykJPEGLooksLikeItsRGBVersion() throws {
        let cmyk = try JPEGDecoder().decode(TestCorpus.data("sharp-photos/Channel_digital_image_CMYK_color.jpg")).image
        // An inverted-CMYK (Adobe) file decoded without inversion would come out as a negative:
        // the mean brightness of this photo is mid-range either way, so compare a known region.
        let (worst, mean) = channelDifference(
            cmyk,
            try JPEGDecoder().decode(TestCorpus.data("sharp-photos/Channel_digital_image_CMYK_color_no_profile.jpg"))
                .image)
        #expect(mean < 30, "worst \(worst), mean \(mean)")
    }

    @Test func strictModeTurnsConcealmentIntoAnError() throws {
        let data = try TestCorpus.data("libjpeg-turbo-testimages/derived/testorig-truncated3000.jpg")
        #expect(throws: ImageDecodingError.self) {
            _ = try JPEGDecoder().decode(data, options: ImageDecodingOptions(isStrict: true))
        }
    }

    @Test func truncatedJPEGAtEveryLengthNeverCrashes() throws {
        let data = try TestCorpus.data("libjpeg-turbo-testimages/testorig.jpg")
        for length in stride(from: 1, to: data.count, by: 97) {
            if let decoded = try? JPEGDecoder().decode(data.prefix(length)) {
                #expect(!decoded.isClean, "a file cut at \(length) of \(data.count) bytes must not decode clean")
            }
        }
    }
}

@Suite("JPEG orientation", .requiresCorpus("exif-orientation"))
struct JPEGOrientationTests {
    /// All 16 EXIF test images stand upright at the same size as the unrotated one, and look
    /// more like it than like any mirrored or turned version of it.
    @Test(arguments: ["Landscape", "Portrait"], 1...8)
    func orientationIsApplied(_ kind: String, _ orientation: Int) throws {
        let upright = try JPEGDecoder().decode(TestCorpus.data("exif-orientation/\(kind)_1.jpg")).image
        let decoded = try JPEGDecoder().decode(TestCorpus.data("exif-orientation/\(kind)_\(orientation).jpg"))
        #expect(decoded.orientation.rawValue == orientation)
        #expect(decoded.image.width == upright.width && decoded.image.height == upright.height)
        let alternatives = ImageOrientation.allCases.filter { !$0.swapsDimensions || upright.width == upright.height }
        let differences = alternatives.map { (channelDifference(decoded.image, upright.applying($0)).mean, $0) }
        let best = differences.min { $0.0 < $1.0 }!
        #expect(best.1 == .up, "closest to upright.applying(\(best.1)); differences \(differences)")
    }

    @Test func orientationCanBeLeftUnapplied() throws {
        let decoded = try JPEGDecoder().decode(
            TestCorpus.data("exif-orientation/Landscape_6.jpg"),
            options: ImageDecodingOptions(appliesOrientation: false))
        let upright = try JPEGDecoder().decode(TestCorpus.data("exif-orientation/Landscape_1.jpg")).image
        #expect(decoded.orientation == .right)
        #expect(decoded.image.width == upright.height && decoded.image.height == upright.width)
    }
}
