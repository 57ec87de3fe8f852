import Comet
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The guide's Comet blocks, verbatim, run against the loopback server (this file imports Comet,
// not the shim: imports are per file).

@Suite("Guide: the same jobs in idiomatic Comet", .timeLimit(.minutes(10)))
struct IdiomaticGuideExamples {
    @Test func downloadingAnImage() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 20, height: 10), at: "comet.png")
        let url = server.imageURL("comet.png")
        let shown = Recorder<Image>()
        let show: @Sendable (Image) -> Void = { shown.append($0) }

        let pipeline = ImagePipeline.shared
        let image = try await pipeline.image(for: url)
        show(image)

        #expect(shown.values.first?.width == 20)
    }

    @Test func processors() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 300, height: 200), at: "avatar.png")
        let url = server.imageURL("avatar.png")
        let pipeline = ImagePipeline(configuration: .init())
        let shown = Recorder<Image>()
        let show: @Sendable (Image) -> Void = { shown.append($0) }

        let avatarRequest = ImageRequest(
            url: url,
            processors: [
                .resize(size: CGSize(width: 100, height: 100), contentMode: .aspectFill, crop: true, upscale: true),
                .circle(),
            ])
        let avatar = try await pipeline.image(for: avatarRequest)
        show(avatar)

        #expect(avatar.width == 100 && avatar.height == 100 && avatar.pixel(x: 0, y: 0).alpha == 0)
        #expect(shown.values.count == 1)
    }

    @Test func customProcessor() throws {
        let gray = try GrayscaleProcessor().process(TestImages.image(width: 4, height: 4))
        #expect(
            (0..<4).allSatisfy {
                let p = gray.pixel(x: $0, y: 2); return p.red == p.green && p.green == p.blue
            })
    }

    @Test func cancelling() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "slow.png")
        let url = server.url("/slow/2000/slow.png")
        let pipeline = ImagePipeline(configuration: .init())
        let printed = Recorder<String>()
        let print: @Sendable (String) -> Void = { printed.append($0) }

        let task = pipeline.loadImage(with: ImageRequest(url: url)) { result in
            if case .failure(.cancelled) = result {
                print("cancelled")
            }
        }
        task.cancel()

        #expect(await eventually { printed.values == ["cancelled"] })
    }

    @Test func credentials() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 9, height: 9), at: "gallery.png")
        let url = server.url("/basic/gallery/secret/gallery.png")

        var loaderConfiguration = DataLoader.Configuration()
        loaderConfiguration.credentialProvider = { _, request in
            guard request?.url?.host == "127.0.0.1" else { return nil }
            return URLCredential(user: "gallery", password: "secret", persistence: .forSession)
        }
        let securePipeline = ImagePipeline(
            configuration: .init(dataLoader: DataLoader(configuration: loaderConfiguration)))

        #expect(try await securePipeline.image(for: url).width == 9)
    }

    @Test func decodingAResponse() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(), at: "data.jpg")
        let url = server.imageURL("data.jpg")
        let pipeline = ImagePipeline(configuration: .init())
        let printed = Recorder<String>()
        let print: @Sendable (String) -> Void = { printed.append($0) }

        let (data, _) = try await pipeline.data(for: ImageRequest(url: url))
        let decoded = try Image(data: data)
        print("image downloaded: \(decoded)")

        #expect(printed.values.first?.hasPrefix("image downloaded: Image(64×48") == true)
    }

    @Test func memoryCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(), at: "cached.png")
        let url = server.imageURL("cached.png")

        let memoryCache = ImageCache(costLimit: 100 * 1024 * 1024)
        let cachingPipeline = ImagePipeline {
            $0.imageCache = memoryCache
        }
        let thumbnail = try await cachingPipeline.image(for: url)
        let cachedThumbnail = cachingPipeline.cache[ImageRequest(url: url)]?.image

        #expect(cachedThumbnail == thumbnail)
        #expect(memoryCache.totalCount == 1)
    }
}

struct GrayscaleProcessor: ImageProcessing, Hashable {
    var identifier: String { "com.example.grayscale" }

    func process(_ image: Image) throws -> Image {
        var bytes = image.packedBytes
        for index in stride(from: 0, to: bytes.count, by: 4) {
            let gray = UInt8((Int(bytes[index]) * 3 + Int(bytes[index + 1]) * 6 + Int(bytes[index + 2])) / 10)
            bytes[index] = gray
            bytes[index + 1] = gray
            bytes[index + 2] = gray
        }
        return Image(width: image.width, height: image.height, isOpaque: image.isOpaque, bytes: bytes)
    }
}
