import Comet
import CometServer
import Foundation
import Testing

/// A source with a colour profile comes out in sRGB with no profile by default (as imgproxy's
/// `strip_color_profile` does), and with its own numbers and profile under `scp:0`; the
/// `Comet-Color` header says which. The reference is Little CMS's conversion of the same file.
@Suite("Colour profiles", .timeLimit(.minutes(10)), .enabled(if: ColorFixture.isAvailable))
struct ColorTests {
    let client = HTTPClient()

    /// The answer for `options` of the P3 photo, its `Comet-Color` header and the PNG decoded
    /// as written (numbers not converted).
    func fetch(_ options: String, source: String = "/img/p3.jpg") async throws -> (
        header: String?, decoded: DecodedImage
    ) {
        var answer: HTTPClient.Answer?
        try await withOriginAndServer { origin, server in
            answer = try await client.get(server.url(options, origin.url(source)))
        }
        let result = try #require(answer)
        #expect(result.status == 200)
        let decoded = try PNGDecoder().decode(
            Data(result.body), options: ImageDecodingOptions(keepsOriginalColors: true))
        return (result.header("Comet-Color"), decoded)
    }

    /// Largest channel difference between an image and a fixture's pixels.
    func difference(_ image: Image, _ fixture: (width: Int, height: Int, rgba: [UInt8])) -> Int {
        #expect(image.width == fixture.width && image.height == fixture.height)
        return zip(image.packedBytes, fixture.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func aP3SourceComesOutInSRGBWithoutAProfile() async throws {
        let (header, decoded) = try await fetch("f:png")
        #expect(header == "srgb")
        #expect(decoded.colorHandling == .untagged, "no profile in the file: browsers read sRGB")
        #expect(difference(decoded.image, try ColorFixture.pixels("p3.jpg.ref.ppm")) <= 2)
    }

    @Test func scp0KeepsTheSourcesNumbersAndProfile() async throws {
        let (header, decoded) = try await fetch("f:png/scp:0")
        #expect(header == "source")
        #expect(decoded.image.colorProfile?.name == "Display P3 (test)")
        #expect(difference(decoded.image, try ColorFixture.pixels("p3.jpg.raw.ppm")) <= 1)
        // A browser applies the embedded profile: what it shows is the sRGB conversion.
        let shown = try PNGDecoder().decode(Data(try ImageEncoders.png(decoded.image)))
        #expect(difference(shown.image, try ColorFixture.pixels("p3.jpg.ref.ppm")) <= 2)
    }

    @Test func aThumbnailIsConvertedToo() async throws {
        let (header, decoded) = try await fetch("rs:fit:128:128/f:png")
        #expect(header == "srgb" && decoded.colorHandling == .untagged)
        let reference = try ColorFixture.pixels("p3.jpg.ref.ppm")
        let referenceImage = Image(
            width: reference.width, height: reference.height, isOpaque: true, bytes: reference.rgba)
        let expected = try ImageProcessors.Resize(width: decoded.image.width).process(referenceImage)
        let mean =
            Double(zip(decoded.image.packedBytes, expected.packedBytes).map { abs(Int($0) - Int($1)) }.reduce(0, +))
            / Double(expected.packedBytes.count)
        #expect(mean < 1.5, "the thumbnail's colours are the sRGB conversion's (mean difference \(mean))")
    }

    @Test func aHEICSourceIsDecodedAndConverted() async throws {
        let (header, decoded) = try await fetch("f:png", source: "/img/p3.heic")
        #expect(header == "srgb" && decoded.colorHandling == .untagged)
        let reference = try ColorFixture.pixels("p3-icc.heic.ref.ppm", in: ColorFixture.heicJXLFolder)
        #expect(difference(decoded.image, reference) <= 2)
    }

    @Test func aJPEGXLSourceIsDecoded() async throws {
        let (_, decoded) = try await fetch("f:png", source: "/img/photo.jxl")
        let reference = try ColorFixture.pixels("lossless.jxl.ref.ppm", in: ColorFixture.heicJXLFolder)
        #expect(difference(decoded.image, reference) == 0)
    }
}
