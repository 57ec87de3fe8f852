import Comet
import CometTestSupport
import Foundation
import Testing

// The code blocks of README.md and the Loading, Decoding and Processing guides, kept verbatim (DocsCodeBlocksTests
// checks that each block appears here), compiled and, where it is safe, run.

/// README and Comet.docc/Loading.md. Compiled only: running it would create ~/.cache/com.example.gallery
/// and replace `ImagePipeline.shared` for the whole test process. The behaviours it shows are
/// tested in the pipeline suites.
func readmeLoadingImages(url: URL) async throws {
    let pipeline = ImagePipeline {
        $0.dataCache = try? DataCache(name: "com.example.gallery")  // disk, LRU, 150 MiB by default
        $0.imageCache = ImageCache(costLimit: 256 << 20)  // memory, LRU by cost
    }
    ImagePipeline.shared = pipeline

    let request = ImageRequest(
        url: url,
        processors: [.resize(size: CGSize(width: 256, height: 256), contentMode: .aspectFill)],
        priority: .high)
    let image = try await pipeline.image(for: request)  // async/await
    let task = pipeline.loadImage(with: request) { print($0) }  // completion on configuration.callbackQueue
    task.priority = .veryHigh  // re-orders queued work
    task.cancel()  // shared work continues for other tasks
    let cached = pipeline.cache[request]  // memory-cache lookup
    _ = (image, cached)
}

/// README, "A thumbnail, then the full image".
func readmeThumbnailThenFull(
    url: URL, pipeline: ImagePipeline, failureImage: Image,
    show: @escaping @Sendable (Image, ContentMode) -> Void
) -> AnyCancellable {
    let thumb = pipeline.imageStream(with: ImageRequest(url: url, processors: [.resize(width: 256)]))
    let full = pipeline.imageStream(with: url)
    let cancellable = thumb.append(full)
        .map { ($0.image, ContentMode.aspectFill) }
        .catch { _ in Just((failureImage, .aspectFit)) }
        .sink { image, mode in show(image, mode) }
    return cancellable
}

/// README and Imaging.docc/DecodingImages.md.
func readmeDecoding(data: Data) throws -> (Image, DecodedImage, Data, Data) {
    let image = try Image(data: data)  // PNG, JPEG, WebP, GIF, AVIF, HEIC, JPEG XL: upright RGBA8
    let result = try ImageDecoders.decode(
        data,
        options: ImageDecodingOptions(
            downsampling: .maxPixelSize(256)  // JPEG: decode at 1/2, 1/4 or 1/8 scale
        ))
    if !result.isClean { print(result.warnings) }  // libjpeg concealed corrupt data: don't cache
    let png = try image.pngData()
    let jpeg = try image.jpegData(compressionQuality: 0.85)
    return (image, result, png, jpeg)
}

/// Imaging.docc/ProcessingImages.md, the opening example.
func processingGuideThumbnail(of image: Image) throws -> Image {
    let thumbnail = try ImageProcessors.Composition([
        .resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true),
        .roundedCorners(radius: 16, border: .init(color: .white, width: 2)),
    ]).process(image)

    // In a request: processors: [.resize(size: CGSize(width: 256, height: 256), contentMode: .aspectFill)]
    return thumbnail
}

/// Imaging.docc/ProcessingImages.md, gravity, an effect and a watermark.
func processingGuideBanner(of image: Image, logo: Image) throws -> Image {
    let banner = ImageProcessors.Composition([
        .resize(size: Size(width: 600, height: 200), crop: true, gravity: .focusPoint(x: 0.5, y: 0.8)),
        .sharpen(radius: 0.5),
        .watermark(logo, id: "logo-v1", opacity: 0.5, position: .compass(.southEast), offsetX: 8, offsetY: 8),
    ])
    return try banner.process(image)
}

@Suite("README and guide code runs", .timeLimit(.minutes(10)))
struct ReadmeCodeTests {
    @Test func thumbnailThenFullShowsBoth() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 600, height: 400), at: "photo.jpg")
        let pipeline = ImagePipeline { $0.imageCache = ImageCache() }
        let shown = Collected<Int>()
        let cancellable = readmeThumbnailThenFull(
            url: server.imageURL("photo.jpg"), pipeline: pipeline,
            failureImage: TestImages.image(width: 1, height: 1)
        ) { image, _ in
            shown.append(image.width)
        }
        #expect(await eventually { shown.count == 2 })
        #expect(shown.all == [256, 600])
        cancellable.cancel()
    }

    @Test func decodingExampleDownsamplesAndReencodes() throws {
        let (image, thumbnail, png, jpeg) = try readmeDecoding(data: TestImages.jpeg(width: 2048, height: 1024))
        #expect(image.width == 2048)
        #expect(thumbnail.image.width == 256 && thumbnail.isClean)  // decoded at 1/8
        #expect(try Image(data: png).width == 2048)
        #expect(try Image(data: jpeg).height == 1024)
    }

    @Test func processingGuideBannerIsFilledSharpenedAndMarked() throws {
        let logo = Image(width: 20, height: 10, color: .white)
        let banner = try processingGuideBanner(of: TestImages.image(width: 640, height: 480), logo: logo)
        #expect(banner.width == 600 && banner.height == 200)
        // The logo, white at half opacity, 8 pixels in from the bottom right corner.
        let marked = banner.pixel(x: 600 - 8 - 10, y: 200 - 8 - 5)
        #expect(marked.red >= 127 && marked.green >= 127 && marked.blue >= 127)
    }

    @Test func processingGuideExampleMakesARoundedSquare() throws {
        let thumbnail = try processingGuideThumbnail(of: TestImages.image(width: 640, height: 480))
        #expect(thumbnail.width == 256 && thumbnail.height == 256)
        #expect(thumbnail.pixel(x: 0, y: 0).alpha == 0)  // the corner is cut away
    }
}
