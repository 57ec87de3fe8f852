import Locking
import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// A request whose first processor is an exact-size resize decodes JPEGs at a reduced DCT scale.
@Suite("Decode-time downsampling for a resize", .timeLimit(.minutes(10)))
struct ResizeDownsamplingTests {
    /// The JPEG decoder, recording the downsampling each decode was asked for.
    final class RecordingJPEGDecoder: ImageDecoding, Sendable {
        private let requests = Locked<[ImageDecodingOptions.Downsampling?]>([])
        var downsamplings: [ImageDecodingOptions.Downsampling?] { requests.withLock { $0 } }
        func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
            requests.withLock { $0.append(options.downsampling) }
            return try JPEGDecoder().decode(data, options: options)
        }
    }

    static let photo = TestImages.jpeg(width: 1024, height: 768)
    static let fill = ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)

    func pipeline(enabled: Bool = true, decoder: RecordingJPEGDecoder) -> ImagePipeline {
        ImagePipeline.test(loader: MockDataLoader(data: Self.photo)) {
            $0.decoders.register(.jpeg, decoder: decoder)
            $0.isResizeDownsamplingEnabled = enabled
        }
    }

    @Test func onlyResizesToAnExactSizeOfferADecodingDownsampling() {
        // 1.5 times the output for Lanczos3 (its decoding headroom, rounded up), the output itself
        // for the area average.
        #expect(Self.fill.decodingDownsampling == .covering(width: 384, height: 384))
        #expect(
            ImageProcessors.Resize(size: Size(width: 90, height: 40), contentMode: .stretch).decodingDownsampling
                == .covering(width: 135, height: 60))
        #expect(
            ImageProcessors.Resize(size: Size(width: 90, height: 40), contentMode: .stretch, filter: .areaAverage)
                .decodingDownsampling == .covering(width: 90, height: 40))
        // Sizes that follow the source's aspect ratio could move by a pixel: no downsampling.
        #expect(
            ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill).decodingDownsampling
                == nil)
        #expect(
            ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFit).decodingDownsampling
                == nil)
        #expect(ImageProcessors.Resize(width: 256).decodingDownsampling == nil)
    }

    @Test func aFillAndCropResizeDecodesAtReducedSizeAndKeepsItsOutputSize() async throws {
        let decoder = RecordingJPEGDecoder()
        let image = try await pipeline(decoder: decoder).image(
            for: ImageRequest(url: URL(string: "https://d.example/a.jpg")!, processors: [Self.fill]))
        #expect(image.width == 256 && image.height == 256)
        #expect(decoder.downsamplings == [.covering(width: 384, height: 384)])
    }

    @Test func theResultIsCloseToAFullDecodeAndResize() async throws {
        let decoder = RecordingJPEGDecoder()
        let image = try await pipeline(decoder: decoder).image(
            for: ImageRequest(url: URL(string: "https://d.example/a.jpg")!, processors: [Self.fill]))
        let reference = try Self.fill.process(JPEGDecoder().decode(Self.photo).image)
        var total = 0, largest = 0
        for y in 0..<256 {
            for x in 0..<256 {
                let a = image.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                for (p, q) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)] {
                    let difference = abs(Int(p) - Int(q))
                    total += difference
                    largest = max(largest, difference)
                }
            }
        }
        let mean = Double(total) / Double(256 * 256 * 3)
        #expect(mean < 2, "mean difference \(mean) per channel")
        #expect(largest < 48, "largest difference \(largest)")
    }

    @Test func turnedOffTheDecodeIsFullSize() async throws {
        let decoder = RecordingJPEGDecoder()
        _ = try await pipeline(enabled: false, decoder: decoder).image(
            for: ImageRequest(url: URL(string: "https://d.example/a.jpg")!, processors: [Self.fill]))
        #expect(decoder.downsamplings == [nil])
    }

    @Test func aThumbnailSettingTakesPrecedence() async throws {
        let decoder = RecordingJPEGDecoder()
        let request = ImageRequest(
            url: URL(string: "https://d.example/a.jpg")!, processors: [Self.fill], thumbnail: .init(maxPixelSize: 300))
        _ = try await pipeline(decoder: decoder).image(for: request)
        // 1.5 times the thumbnail's size: the headroom of its Lanczos3 resize.
        #expect(decoder.downsamplings == [.maxPixelSize(450)])
    }
}
