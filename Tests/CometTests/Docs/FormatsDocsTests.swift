import Foundation
import Testing
@testable import Comet
import CometTestSupport

// The code of Imaging.docc/Formats.md, kept identical so it compiles and runs.

func play(_ animation: AnimatedImage, show: (Image) -> Void) async throws {
    var plays = 0
    repeat {
        for index in animation.frames.indices {
            show(animation.frames[index].image)
            try await Task.sleep(for: .seconds(animation.displayDuration(at: index)))
        }
        plays += 1
    } while animation.loopCount == 0 || plays < animation.loopCount
}

@Suite("The Formats guide runs", .timeLimit(.minutes(10)))
struct FormatsDocsTests {
    @Test func decodingAnyFormat() throws {
        for webpOrGIFOrAVIFData in [
            TestImages.webp(), TestImages.animatedGIF(width: 64, height: 48), TestImages.avif(),
        ] {
            let still = try Image(data: webpOrGIFOrAVIFData)  // upright RGBA8; a GIF's first frame
            #expect(still.width == 64)
        }
    }

    @Test func aFilesFormatNamesAndTypesIt() {
        let data = TestImages.webp()
        let format = AssetType(data).flatMap(ImageFormat.init)  // e.g. ImageFormat.webp
        let name = "photo." + (format?.preferredFileExtension ?? "bin")  // "photo.webp"
        let type = format?.mimeType  // "image/webp"
        #expect(name == "photo.webp" && type == "image/webp")
    }

    @Test func aWebPThumbnail() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.webp(width: 1024, height: 512), at: "w.webp")
        let (pipeline, _) = makeRealPipeline()
        let webpURL = server.imageURL("w.webp")
        let request = ImageRequest(url: webpURL, thumbnail: .init(maxPixelSize: 256))
        let thumbnail = try await pipeline.image(for: request)
        #expect(thumbnail.width == 256 && thumbnail.height == 128)
    }

    @Test func framesOfAnAnimationAndPlayingThem() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.animatedGIF(frames: 3), at: "a.gif")
        let (pipeline, _) = makeRealPipeline()
        let gifURL = server.imageURL("a.gif")
        let response = try await pipeline.imageTask(with: ImageRequest(url: gifURL, options: [.decodeAnimation]))
            .response
        if let animation = response.animation {
            print("\(animation.frames.count) frames, \(animation.duration) s a loop")
        }
        var animation = try #require(response.animation)
        animation.loopCount = 2
        animation.frames = animation.frames.map { AnimatedImage.Frame(image: $0.image, duration: 0.02) }
        let shown = Collected<Int>()
        try await play(animation) { shown.append($0.pixel(x: 0, y: 0).red == 255 ? 0 : 1) }
        #expect(shown.count == 6)
    }

    @Test func encodings() throws {
        let image = TestImages.image(width: 40, height: 30, alpha: true)
        let animation = AnimatedImage(
            type: .gif, frames: [.init(image: image, duration: 0.1), .init(image: image, duration: 0.1)],
            loopCount: 0, data: Data())
        let webp = try image.webpData(quality: 0.8)  // lossy; keeps alpha
        let exact = try image.webpData(lossless: true)  // pixel-exact
        let avif = try image.avifData(quality: 0.6)
        let gif = try ImageEncoders.gif(animation)  // or ImageEncoders.animatedWebP(animation)
        #expect([webp, exact, avif, gif].map { AssetType($0) } == [.webp, .webp, .avif, .gif])
        #expect(try Image(data: exact) == image)
    }

    @Test func aWebPDiskCacheConfiguration() {
        let pipeline = ImagePipeline {
            $0.dataCache = try? DataCache(name: "com.example.thumbnails")
            $0.dataCachePolicy = .automatic
            $0.makeImageEncoder = { _ in ImageEncoders.WebP(quality: 0.8) }
        }
        let encoder = pipeline.configuration.makeImageEncoder(
            ImageEncodingContext(request: ImageRequest(url: nil), image: TestImages.image()))
        #expect(encoder.type == .webp)
        (pipeline.configuration.dataCache as? DataCache)?.removeAll()
    }
}
