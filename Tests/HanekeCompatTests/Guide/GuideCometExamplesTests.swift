import Comet
import CometTestSupport
import FlyingFox
import Foundation
import Testing

/// The guide's idiomatic Comet code, compiled with `import Comet` and run against the loopback server.
@Suite(.timeLimit(.minutes(10)))
struct GuideCometExamplesTests {
    init() { TestBase.prepare() }

    /// A pipeline with a memory cache of its own: the guide's `pipeline.cache.removeAll()` would
    /// otherwise empty `ImageCache.shared` under other suites' feet (NukeCompat's prefetch test
    /// waits for an image to appear there).
    private func makePipeline(_ cacheDirectory: URL) -> ImagePipeline {
        ImagePipeline {
            $0.imageCache = ImageCache()
            $0.dataCache = DataCache(path: cacheDirectory.appendingPathComponent("pipeline"))
        }
    }

    @Test func jsonIsDownloadedOnceThenReadFromTheDataCache() async throws {
        let server = try await TestServer.start()
        server.handle("/users/haneke") { _ in
            HTTPResponse(statusCode: .ok, body: Data(#"{"login": "haneke", "bio": "Cache all the things"}"#.utf8))
        }
        let cache = DataCache(path: URL(fileURLWithPath: TestBase.diskCachePath()))
        let pipeline = ImagePipeline()
        let first = try await githubUser(at: server.url("/users/haneke"), cache: cache, pipeline: pipeline)
        let second = try await githubUser(at: server.url("/users/haneke"), cache: cache, pipeline: pipeline)
        #expect(first.login == "haneke" && second.bio == "Cache all the things")
        #expect(server.requestCount(for: "/users/haneke") == 1)
        await server.stop()
    }

    @Test func dataIsStoredAndReadBack() {
        let cacheDirectory = URL(fileURLWithPath: TestBase.diskCachePath())
        let data = Data("not really a video".utf8)
        let played = Outcome<Data>()
        let play = played.succeed

        let videos = DataCache(path: cacheDirectory.appendingPathComponent("videos"))
        videos.storeData(data, for: "funny-games.mp4")
        if let cached = videos.cachedData(for: "funny-games.mp4") {
            play(cached)
        }

        #expect(played.values == [data])
    }

    @Test func anImageIsLoadedThroughThePipeline() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 40, height: 30), at: "avatar.jpg")
        let avatarURL = server.imageURL("avatar.jpg")
        let cacheDirectory = URL(fileURLWithPath: TestBase.diskCachePath())
        let shown = Outcome<Image>()
        let show = shown.succeed

        let pipeline = ImagePipeline {
            $0.dataCache = DataCache(path: cacheDirectory.appendingPathComponent("images"))
        }
        let avatar = try await pipeline.image(for: avatarURL)
        show(avatar)

        #expect(shown.value?.width == 40)
        await server.stop()
    }

    @Test func roundedCornersAreAProcessorOnTheRequest() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 32, height: 32), at: "icon.jpg")
        let iconURL = server.imageURL("icon.jpg")
        let pipeline = makePipeline(URL(fileURLWithPath: TestBase.diskCachePath()))
        let shown = Outcome<Image>()
        let show = shown.succeed

        let icon = ImageRequest(url: iconURL, processors: [.roundedCorners(radius: 8)])
        let roundedIcon = try await pipeline.image(for: icon)
        show(roundedIcon)

        #expect(shown.value?.pixel(x: 0, y: 0).alpha == 0)
        #expect(imageByRoundingCornersOfImage(TestImages.image(width: 32, height: 32)).pixel(x: 0, y: 0).alpha == 0)
        await server.stop()
    }

    @Test func aResizeProcessorMakesThumbnails() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 400, height: 200), at: "photo.jpg")
        let photoURL = server.imageURL("photo.jpg")
        let pipeline = makePipeline(URL(fileURLWithPath: TestBase.diskCachePath()))
        let shown = Outcome<Image>()
        let show = shown.succeed

        let thumbnail = ImageRequest(
            url: photoURL, processors: [.resize(size: CGSize(width: 100, height: 100), contentMode: .aspectFill)])
        show(try await pipeline.image(for: thumbnail))

        #expect(shown.value?.width == 200 && shown.value?.height == 100)
        await server.stop()
    }

    @Test func anImageCanComeFromAClosure() async throws {
        let pipeline = makePipeline(URL(fileURLWithPath: TestBase.diskCachePath()))
        let shown = Outcome<Image>()
        let show = shown.succeed

        let generated = ImageRequest(id: "avatar-initials-JD", data: { try renderInitialsPNG("JD") })
        show(try await pipeline.image(for: generated))

        #expect(shown.value?.width == 16)
    }

    @Test func aMissingImageIsADataLoadingFailureWith404() async throws {
        let server = try await TestServer.start()
        let missingURL = server.imageURL("missing.jpg")
        let pipeline = makePipeline(URL(fileURLWithPath: TestBase.diskCachePath()))
        let placeholders = Outcome<Void>()
        let showPlaceholder = { placeholders.succeed(()) }

        do {
            _ = try await pipeline.image(for: missingURL)
        } catch let error as ImagePipeline.Error {
            if case .dataLoadingFailed(_, let statusCode, _) = error, statusCode == 404 {
                showPlaceholder()
            }
        }

        #expect(placeholders.callbackCount == 1)
        await server.stop()
    }

    @Test func removeAllEmptiesThePipelineAndTheDataCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 8, height: 8), at: "a.jpg")
        let cacheDirectory = URL(fileURLWithPath: TestBase.diskCachePath())
        let pipeline = makePipeline(cacheDirectory)
        let videos = DataCache(path: cacheDirectory.appendingPathComponent("videos"))
        videos.storeData(Data("v".utf8), for: "funny-games.mp4")
        let request = ImageRequest(url: server.imageURL("a.jpg"))
        _ = try await pipeline.image(for: request)
        #expect(pipeline.cache[request] != nil)

        pipeline.cache.removeAll()
        videos.removeAll()

        #expect(pipeline.cache[request] == nil)
        #expect(videos.cachedData(for: "funny-games.mp4") == nil)
        await server.stop()
    }
}

struct GitHubUser: Decodable {
    let login: String
    let bio: String?
}

func githubUser(at url: URL, cache: DataCache, pipeline: ImagePipeline) async throws -> GitHubUser {
    if let data = cache.cachedData(for: url.absoluteString) {
        return try JSONDecoder().decode(GitHubUser.self, from: data)
    }
    let (data, _) = try await pipeline.data(for: ImageRequest(url: url))
    let user = try JSONDecoder().decode(GitHubUser.self, from: data)
    cache.storeData(data, for: url.absoluteString)
    return user
}

func imageByRoundingCornersOfImage(_ image: Image) -> Image {
    (try? ImageProcessors.RoundedCorners(radius: 8).process(image)) ?? image
}

/// Stands in for an app's avatar renderer: a 16×16 PNG.
@Sendable func renderInitialsPNG(_ initials: String) throws -> Data {
    TestImages.png(width: 16, height: 16)
}
