import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// Link-U's AVIF set: every variant decodes at its documented size (README: fox 1204×800, odd
/// width 1203, odd height 799; kimono 722×1024); transformed files come out like the plain one.
@Suite("AVIF corpus (Link-U, Xiph)", .requiresCorpus("avif"))
struct AVIFCorpusTests {
    static func decode(_ name: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> DecodedImage {
        try AVIFDecoder().decode(TestCorpus.data("avif/link-u/\(name)"), options: options)
    }

    @Test(arguments: try TestCorpus.files(in: "avif/link-u", withExtension: "avif").filter { $0.hasPrefix("fox") })
    func foxVariantDecodesAtItsDocumentedSize(_ name: String) throws {
        let decoded = try ImageDecoders.decode(TestCorpus.data("avif/link-u/\(name)"))
        #expect(decoded.type == .avif)
        #expect(decoded.image.width == (name.contains("odd-width") ? 1203 : 1204))
        #expect(decoded.image.height == (name.contains("odd-height") ? 799 : 800))
        #expect(decoded.image.isOpaque && decoded.isClean)
    }

    @Test(arguments: try TestCorpus.files(in: "avif/link-u", withExtension: "avif").filter { $0.hasPrefix("hato") })
    func hatoVariantDecodes(_ name: String) throws {
        let image = try Self.decode(name).image
        #expect(image.width == 3082 && image.height == 2048)
    }

    /// (hato.profile2.12bpc.yuv422.monochrome.no-cdef.no-restoration.avif is left out: despite
    /// its name it stores 4:2:2 colour; libavif reads yuvFormat 2 from it.)
    @Test(
        arguments: try TestCorpus.files(in: "avif/link-u", withExtension: "avif").filter {
            $0.contains("monochrome") && $0 != "hato.profile2.12bpc.yuv422.monochrome.no-cdef.no-restoration.avif"
        })
    func monochromeDecodesToGray(_ name: String) throws {
        let bytes: [UInt8] = try Self.decode(name).image.packedBytes
        let offsets = stride(from: 0, to: bytes.count, by: 4 * 97)
        let spread = offsets.map { (i: Int) -> Int in
            Int(max(bytes[i], bytes[i + 1], bytes[i + 2]) - min(bytes[i], bytes[i + 1], bytes[i + 2]))
        }
        #expect(spread.max()! == 0)
    }

    /// One picture at 8, 10 and 12 bits (4:2:0 and 4:2:2): each higher depth within a small
    /// mean difference of the 8-bit decode (they are separate lossy encodes of one photo).
    @Test(arguments: [
        ("fox.profile0.8bpc.yuv420.avif", "fox.profile0.10bpc.yuv420.avif"),
        ("fox.profile0.8bpc.yuv420.avif", "fox.profile2.12bpc.yuv420.avif"),
        ("fox.profile2.8bpc.yuv422.avif", "fox.profile2.10bpc.yuv422.avif"),
        ("fox.profile2.8bpc.yuv422.avif", "fox.profile2.12bpc.yuv422.avif"),
        ("fox.profile1.8bpc.yuv444.avif", "fox.profile2.12bpc.yuv444.avif"),
    ])
    func bitDepthsOfOnePictureAgree(_ eightBit: String, _ deeper: String) throws {
        let difference = channelDifference(try Self.decode(eightBit).image, try Self.decode(deeper).image)
        #expect(difference.mean < 2.5, "\(deeper): mean \(difference.mean), max \(difference.max)")
    }

    @Test(arguments: [
        "kimono.rotate90.avif", "kimono.rotate270.avif", "kimono.mirror-horizontal.avif",
        "kimono.mirror-vertical.avif", "kimono.mirror-vertical.rotate270.avif",
    ])
    func rotationsAndMirrorsComeOutLikeThePlainFile(_ name: String) throws {
        let plain = try Self.decode("kimono.avif").image
        let decoded = try Self.decode(name)
        #expect(decoded.orientation != .up)
        #expect(decoded.image.width == 722 && decoded.image.height == 1024)
        // Separate lossy encodes of one picture: a few levels apart when turned right, tens of
        // levels apart when mirrored wrongly.
        let difference = channelDifference(plain, decoded.image)
        #expect(difference.mean < 4, "\(name) (\(decoded.orientation)): mean \(difference.mean)")
        #expect(channelDifference(plain, decoded.image.applying(.upMirrored)).mean > 4 * difference.mean)
    }

    @Test func orientationCanBeLeftUnapplied() throws {
        let decoded = try Self.decode("kimono.rotate90.avif", options: ImageDecodingOptions(appliesOrientation: false))
        #expect(decoded.orientation == .right)
        #expect(decoded.image.width == 1024 && decoded.image.height == 722)
    }

    /// clap 385×330 offset (103, -308) from the centre: the origin (271.5, 39) rounds to (272, 39)
    /// (libavif's conversion of the box).
    @Test func cleanApertureCropsLikeTheREADMESays() throws {
        let plain = try Self.decode("kimono.avif").image
        let cropped = try Self.decode("kimono.crop.avif").image
        #expect(cropped.width == 385 && cropped.height == 330)
        let expected = plain.cropped(x: 272, y: 39, width: 385, height: 330)
        #expect(channelDifference(expected, cropped).mean < 2)
    }

    @Test func cropThenRotateThenMirrorEqualsTheCrop() throws {
        let crop = try Self.decode("kimono.crop.avif").image
        let transformed = try Self.decode("kimono.mirror-vertical.rotate270.crop.avif").image
        #expect(transformed.width == crop.width && transformed.height == crop.height)
        #expect(channelDifference(crop, transformed).mean < 4)
    }

    @Test(arguments: [
        "abandoned_filmgrain.avif", "fruits_2layer_thumbsize.avif", "quebec_3layer_op2.avif",
        "tiger_3layer_1res.avif", "tiger_3layer_3res.avif",
    ])
    func xiphFileDecodes(_ name: String) throws {
        let image = try AVIFDecoder().decode(TestCorpus.data("avif/xiph/\(name)")).image
        #expect(image.width > 0 && image.height > 0)
    }

    @Test(arguments: [12, 40, 300, 1000, 5000])
    func aTruncatedFileIsAnErrorWithLibavifsMessage(_ length: Int) throws {
        let data = try TestCorpus.data("avif/link-u/fox.profile0.8bpc.yuv420.avif")
        #expect {
            _ = try AVIFDecoder().decode(data.prefix(length))
        } throws: { error in
            guard case .corrupt(.avif, let reason) = error as? ImageDecodingError else { return false }
            return reason.contains("libavif")
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let file = try TestCorpus.data("avif/link-u/kimono.rotate90.avif")
        decodeWithFlippedBytes([file], count: 60, seed: 8118, prefix: 4000) { _ = try AVIFDecoder().decode($0) }
    }

    /// The `ispe` box of a real file, patched to declare `width`×`height`.
    static func declaring(width: UInt32, height: UInt32) throws -> Data {
        var bytes = [UInt8](try TestCorpus.data("avif/link-u/fox.profile0.8bpc.yuv420.avif"))
        let tag = Array("ispe".utf8)
        let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        bytes.replaceSubrange(
            (at + 8)..<(at + 16),
            with: withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init))
        return Data(bytes)
    }

    @Test func aDeclared100000SquaredIsTooLargeAtOnce() throws {
        #expect {
            _ = try ImageDecoders.decode(Self.declaring(width: 100_000, height: 100_000))
        } throws: { error in
            guard case .tooLarge(100_000, 100_000, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }

    @Test func ourLimitsApplyBeforeAnyAV1Decoding() throws {
        var options = ImageDecodingOptions()
        options.limits.maxDimension = 1000
        #expect {
            _ = try AVIFDecoder().decode(TestCorpus.data("avif/link-u/fox.profile0.8bpc.yuv420.avif"), options: options)
        } throws: { error in
            guard case .tooLarge(1204, 800, _) = error as? ImageDecodingError else { return false }
            return true
        }
    }
}
