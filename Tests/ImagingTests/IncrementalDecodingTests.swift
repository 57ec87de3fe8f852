import CometTestSupport
import Foundation
import Testing
@testable import Imaging

@Suite("Incremental decoding")
struct IncrementalDecodingTests {
    /// Feeds `data` in chunks of `chunkSize`, asking for a preview after each; returns the
    /// previews and the final result.
    static func feed(_ data: Data, chunkSize: Int, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> (
        previews: [Image], final: DecodedImage
    ) {
        let decoder = IncrementalImageDecoder(options: options)
        var previews: [Image] = []
        var offset = 0
        while offset < data.count {
            let end = min(offset + chunkSize, data.count)
            try decoder.append(data[offset..<end])
            if let preview = try decoder.makePreview() { previews.append(preview) }
            offset = end
        }
        return (previews, try decoder.finish())
    }

    @Test(
        .requiresCorpus("libjpeg-turbo-testimages"),
        arguments: ["testorig-progressive.jpg", "testorig-q50-prog420.jpg"])
    func progressiveJPEGGivesPreviewsThenTheOneShotImage(_ name: String) throws {
        try Self.expectPreviewsThenTheOneShotImage(TestCorpus.data("libjpeg-turbo-testimages/derived/\(name)"))
    }

    /// The same check on a progressive JPEG that libjpeg writes for the tests.
    @Test func generatedProgressiveJPEGGivesPreviewsThenTheOneShotImage() throws {
        try Self.expectPreviewsThenTheOneShotImage(GeneratedFiles.progressiveJPEG())
    }

    /// Feeds a progressive JPEG 512 bytes at a time: at least two full-size previews, then the
    /// image a one-shot decode gives, clean.
    static func expectPreviewsThenTheOneShotImage(_ data: Data) throws {
        let (previews, final) = try Self.feed(data, chunkSize: 512)
        #expect(previews.count >= 2, "\(previews.count) previews")
        #expect(previews.allSatisfy { $0.width == final.image.width && $0.height == final.image.height })
        #expect(final.image == (try JPEGDecoder().decode(data)).image)
        #expect(final.isClean)
    }

    @Test func laterPreviewsAreCloserToTheFinalImage() throws {
        let data = try ImageEncoders.jpeg(
            EncodingTests.gradient(width: 320, height: 240, alpha: false), quality: 0.9, progressive: true)
        let (previews, final) = try Self.feed(data, chunkSize: 256)
        try #require(previews.count >= 2)
        #expect(
            channelDifference(previews.last!, final.image).mean <= channelDifference(previews.first!, final.image).mean)
    }

    @Test func progressivePreviewsHonourDownsamplingAndOrientation() throws {
        let source = EncodingTests.gradient(width: 320, height: 240, alpha: false)
        let data = try ImageEncoders.jpeg(source, quality: 0.9, progressive: true)
        let options = ImageDecodingOptions(downsampling: .maxPixelSize(80))
        let (previews, final) = try Self.feed(data, chunkSize: 300, options: options)
        #expect(final.image.width == 80 && final.image.height == 60)
        #expect(previews.allSatisfy { $0.width == 80 && $0.height == 60 })
        #expect(final.image == (try JPEGDecoder().decode(data, options: options)).image)
    }

    @Test func baselineJPEGHasNoPreviewsButDecodesTheSame() throws {
        let data = try GeneratedFiles.baselineJPEG()
        let (previews, final) = try Self.feed(data, chunkSize: 1000)
        #expect(previews.isEmpty)
        #expect(final.image == (try JPEGDecoder().decode(data)).image)
    }

    @Test(arguments: [1, 7, 4096])
    func chunkSizeDoesNotChangeTheResult(chunkSize: Int) throws {
        let data = try GeneratedFiles.progressiveJPEG()
        #expect(try Self.feed(data, chunkSize: chunkSize).final.image == (try JPEGDecoder().decode(data)).image)
    }

    /// libjpeg's arithmetic decoder cannot suspend, so such files are decoded once complete.
    @Test(.requiresCorpus("libjpeg-turbo-testimages"))
    func arithmeticCodedProgressiveJPEGDecodesWithoutPreviews() throws {
        let data = try TestCorpus.data("libjpeg-turbo-testimages/derived/testorig-progressive-arith.jpg")
        let (previews, final) = try Self.feed(data, chunkSize: 512)
        #expect(previews.isEmpty)
        #expect(final.image == (try JPEGDecoder().decode(data)).image)
    }

    /// A file cut short ends the same way as a one-shot decode of the same bytes: the same
    /// concealed image with warnings, or an error when the cut falls inside a table.
    @Test(arguments: [0.3, 0.5, 0.66, 0.8, 0.95])
    func truncatedProgressiveJPEGEndsLikeAOneShotDecode(fraction: Double) throws {
        let data = try GeneratedFiles.progressiveJPEG()
        let cut = data.prefix(Int(Double(data.count) * fraction))
        let oneShot = Result { try JPEGDecoder().decode(cut) }
        let incremental = Result { try Self.feed(cut, chunkSize: 512).final }
        switch (oneShot, incremental) {
        case (.success(let a), .success(let b)):
            #expect(a.image == b.image)
            #expect(!a.isClean && !b.isClean)
        case (.failure, .failure):
            break
        default:
            Issue.record("one-shot \(oneShot) but incremental \(incremental)")
        }
    }

    /// PngSuite's basi6a08.png (32×32 RGBA, Adam7).
    @Test(.requiresCorpus("pngsuite"))
    func interlacedPNGGivesPassPreviewsThenTheExactImage() throws {
        try Self.expectPassPreviewsThenTheExactImage(TestCorpus.data("pngsuite/basi6a08.png"))
    }

    /// The same check on a file of that shape that the tests write themselves.
    @Test func generatedInterlacedPNGGivesPassPreviewsThenTheExactImage() throws {
        try Self.expectPassPreviewsThenTheExactImage(GeneratedFiles.interlacedPNG())
    }

    /// Feeds an interlaced PNG 8 bytes at a time: there are previews, each shows more Adam7
    /// passes than the one before, and the final image equals a one-shot decode.
    static func expectPassPreviewsThenTheExactImage(_ data: Data) throws {
        let (previews, final) = try Self.feed(data, chunkSize: 8)
        #expect(previews.count >= 2, "\(previews.count) previews")
        #expect(final.image == (try PNGDecoder().decode(data)).image)
        // Each preview shows the passes completed so far, every block repeating its known
        // top-left pixel; each shows more passes than the one before.
        var lastPasses = 0
        for preview in previews {
            let passes = (1...6).first { preview == Self.blockFill(final.image, passes: $0) }
            #expect(passes != nil)
            #expect((passes ?? 0) > lastPasses)
            lastPasses = passes ?? lastPasses
        }
    }

    /// What a preview after `passes` Adam7 passes must look like, computed from the final image.
    static func blockFill(_ image: Image, passes: Int) -> Image {
        let (bw, bh) = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2)][passes - 1]
        var bytes: [UInt8] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x - x % bw, y: y - y % bh)
                bytes += [p.red, p.green, p.blue, p.alpha]
            }
        }
        return Image(width: image.width, height: image.height, isOpaque: image.isOpaque, bytes: bytes)
    }

    @Test func nonInterlacedPNGDecodesIncrementallyWithoutPreviews() throws {
        let data = try GeneratedFiles.png()
        let (previews, final) = try Self.feed(data, chunkSize: 8192)
        #expect(previews.isEmpty)
        #expect(final.image == (try PNGDecoder().decode(data)).image)
    }

    @Test func truncatedPNGIsAnErrorAtFinish() throws {
        let data = GeneratedFiles.interlacedPNG()
        #expect(throws: ImageDecodingError.self) { _ = try Self.feed(data.prefix(data.count - 20), chunkSize: 100) }
    }

    @Test func unsupportedFormatIsRecognisedFromTheFirstChunk() throws {
        let decoder = IncrementalImageDecoder()
        let bmp = Data(Array("BM".utf8) + [UInt8](repeating: 0, count: 14))
        #expect(throws: ImageDecodingError.unsupportedFormat(.bmp)) { try decoder.append(bmp) }
        #expect(throws: ImageDecodingError.unsupportedFormat(.bmp)) { _ = try decoder.finish() }
    }

    @Test func limitsApplyBeforeAnyPixelArrives() throws {
        var options = ImageDecodingOptions()
        options.limits.maxPixelCount = 100
        let data = try GeneratedFiles.progressiveJPEG()
        #expect {
            _ = try Self.feed(data.prefix(2000), chunkSize: 500, options: options)
        } throws: { error in
            if case .tooLarge = error as? ImageDecodingError { return true }
            return false
        }
    }
}
