import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The guide's legacy (AlamofireImage 2) blocks, verbatim, run against the loopback server.
// `show` and `print` are local closures here so the tests can see what the blocks did.

@Suite("Guide: legacy code compiles and runs with the shim", .timeLimit(.minutes(10)))
struct LegacyGuideExamples {
    @Test func downloadingAnImage() async throws {
        let server = try await AFIServer.start()
        let imageURLString = server.serve(TestImages.png(width: 20, height: 10), at: "guide.png").absoluteString
        let shown = Recorder<Image>()
        let show: @Sendable (Image) -> Void = { shown.append($0) }

        let downloader = ImageDownloader()
        let urlRequest = URLRequest(url: URL(string: imageURLString)!)

        downloader.downloadImage(URLRequest: urlRequest) { response in
            debugPrint(response.result)
            if let image = response.result.value {
                show(image)
            }
        }

        #expect(await eventually { shown.count == 1 })
        #expect(shown.values.first?.width == 20)
    }

    @Test func filters() async throws {
        let server = try await AFIServer.start()
        let urlRequest = URLRequest(url: server.serve(TestImages.png(width: 300, height: 200), at: "avatar.png"))
        let downloader = ImageDownloader()
        let shown = Recorder<Image>()
        let show: @Sendable (Image) -> Void = { shown.append($0) }

        let avatarFilter = AspectScaledToFillSizeCircleFilter(size: CGSize(width: 100, height: 100))

        downloader.downloadImage(URLRequest: urlRequest, filter: avatarFilter) { response in
            if let avatar = response.result.value {
                show(avatar)
            }
        }

        #expect(await eventually { shown.count == 1 })
        let avatar = try #require(shown.values.first)
        #expect(avatar.width == 100 && avatar.height == 100 && avatar.pixel(x: 0, y: 0).alpha == 0)
        let key = "\(urlRequest.url!.absoluteString)-AspectScaledToFillSizeFilter-size:(100x100)_CircleFilter"
        #expect(downloader.imageCache?.imageWithIdentifier(key) != nil)
    }

    @Test func customFilter() {
        let image = TestImages.image(width: 4, height: 4)
        let gray = Grayscale().filter(image)
        #expect(gray.width == 4)
        #expect(
            (0..<4).allSatisfy {
                let p = gray.pixel(x: $0, y: 1); return p.red == p.green && p.green == p.blue
            })
        #expect(Grayscale().identifier == "Grayscale")
    }

    @Test func cancellingOneCaller() async throws {
        let server = try await AFIServer.start()
        let gate = Gate()
        let urlRequest = URLRequest(url: server.serve(TestImages.png(), at: "cancel-guide.png", after: gate))
        let downloader = ImageDownloader()
        let printed = Recorder<String>()
        let print: @Sendable (String) -> Void = { printed.append($0) }

        let receipt = downloader.downloadImage(URLRequest: urlRequest) { response in
            if let error = response.result.error, error.code == NSURLErrorCancelled {
                print("cancelled")
            }
        }

        if let receipt = receipt {
            downloader.cancelRequestForRequestReceipt(receipt)
        }

        #expect(await eventually { printed.values == ["cancelled"] })
        #expect(receipt?.request.task.state == .running, "a running download continues")
        gate.release()
    }

    @Test func authentication() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(), at: "private.png")
        let urlRequest = URLRequest(url: server.server.url("/basic/username/password/private.png"))
        let downloader = ImageDownloader()

        downloader.addAuthentication(user: "username", password: "password")

        let recorder = Recorder<Completion>()
        downloader.downloadImage(URLRequest: urlRequest, completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.image != nil)
    }

    @Test func authenticationDelegate() async throws {
        let server = try await AFIServer.start()
        server.server.serve(TestImages.png(), at: "gallery.png")
        let downloader = ImageDownloader()

        let credentials = GalleryCredentials()
        downloader.delegate = credentials

        let recorder = Recorder<Completion>()
        downloader.downloadImage(
            URLRequest: server.server.url("/basic/gallery/secret/gallery.png"), completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.image != nil)
    }

    @Test func responseImage() async throws {
        let server = try await AFIServer.start()
        let imageURLString = server.serve(TestImages.jpeg(), at: "response.jpg", contentType: "image/jpeg")
            .absoluteString
        let printed = Recorder<String>()
        let print: @Sendable (String) -> Void = { printed.append($0) }

        Alamofire.request(.GET, imageURLString)
            .responseImage { response in
                debugPrint(response)
                if let image = response.result.value {
                    print("image downloaded: \(image)")
                }
            }

        #expect(await eventually { printed.count == 1 })
        #expect(printed.values.first?.hasPrefix("image downloaded: Image(64×48") == true)
    }

    @Test func imageCache() {
        let avatarImage = TestImages.image(width: 10, height: 10)

        let imageCache = AutoPurgingImageCache(
            memoryCapacity: 100 * 1024 * 1024,
            preferredMemoryUsageAfterPurge: 60 * 1024 * 1024
        )

        imageCache.addImage(avatarImage, withIdentifier: "avatar")
        let cachedAvatar = imageCache.imageWithIdentifier("avatar")
        imageCache.removeImageWithIdentifier("avatar")

        #expect(cachedAvatar == avatarImage)
        #expect(imageCache.imageWithIdentifier("avatar") == nil)
    }
}

/// The guide's command-line example: compiled here, not run (it ends the process).
func downloadThenExit(_ urlRequest: URLRequest) -> Never {
    ImageDownloader.defaultInstance.downloadImage(URLRequest: urlRequest) { response in
        print(response.result.isSuccess ? "downloaded" : "failed")
        exit(response.result.isSuccess ? 0 : 1)
    }
    dispatchMain()
}

struct Grayscale: ImageFilter {
    var filter: (Image) -> Image {
        return { image in
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
}

// The guide's block keeps the parameter name of AlamofireImage 2's delegate requirement.
// swift-format-ignore: AlwaysUseLowerCamelCase
final class GalleryCredentials: ImageDownloaderDelegate {
    func authenticationCredentialForURLRequest(_ URLRequest: URLRequest) -> URLCredential? {
        guard let host = URLRequest.url?.host, host == "127.0.0.1" else { return nil }
        return URLCredential(user: "gallery", password: "secret", persistence: .forSession)
    }
}
