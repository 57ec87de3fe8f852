import CometTestSupport
import FlyingFox
import Foundation
import HanekeCompat
import Testing

/// The guide's Haneke code (and Haneke's own JSON, data and icon-format examples), compiled
/// with `import HanekeCompat` and run. Serialized: several examples share `Shared.dataCache` keys.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct GuideHanekeExamplesTests {
    init() { TestBase.prepare() }

    @Test func theBaseDirectoryDecidesWhereCachesLive() {
        let cacheDirectory = TestBase.directory
        DiskCache.baseDirectory = cacheDirectory
        let downloads = Cache<Data>(name: "downloads")
        #expect(downloads.cachePath == cacheDirectory.appendingPathComponent("downloads").path)
    }

    // The guide's block names its closure parameter `JSON`, as Haneke's README did.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @Test func aJSONCacheDownloadsAURLOnceThenAnswersFromMemory() async throws {
        let server = try await TestServer.start()
        server.handle("/users/haneke") { _ in
            HTTPResponse(
                statusCode: .ok, headers: [.contentType: "application/json"],
                body: Data(#"{"login": "haneke", "bio": "A lightweight zero-config image cache"}"#.utf8))
        }
        let githubURL = server.url("/users/haneke")
        let bios = Outcome<String?>()
        let showBio = bios.succeed

        let cache = Cache<JSON>(name: "github")
        cache.fetch(URL: githubURL).onSuccess { JSON in
            showBio(JSON.dictionary?["bio"] as? String)
        }

        #expect(await bios.wait())
        #expect(bios.values == ["A lightweight zero-config image cache"])
        #expect(bios.allOnMain)
        var fromMemory: JSON?
        cache.fetch(URL: githubURL).onSuccess { fromMemory = $0 }
        #expect(fromMemory?.dictionary?["login"] as? String == "haneke")
        #expect(server.requestCount(for: "/users/haneke") == 1)
        await server.stop()
    }

    @Test func aDataValueSetInTheSharedCacheIsFetchedBackFromMemory() async {
        let data = Data("not really a video".utf8)
        let played = Outcome<Data>()
        let play = played.succeed

        let cache = Shared.dataCache
        cache.set(value: data, key: "funny-games.mp4")

        // Eventually...
        cache.fetch(key: "funny-games.mp4").onSuccess { data in
            play(data)
        }

        #expect(played.values == [data])  // a memory hit: synchronous
        cache.remove(key: "funny-games.mp4")  // the shared cache outlives the test
    }

    @Test func anImageIsFetchedFromAURL() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 40, height: 30), at: "avatar.jpg")
        let avatarURL = server.imageURL("avatar.jpg")
        let shown = Outcome<Image>()
        let show = shown.succeed

        Shared.imageCache.fetch(URL: avatarURL).onSuccess { image in
            show(image)
        }

        #expect(await shown.wait())
        #expect(shown.value?.width == 40 && shown.value?.height == 30)
        await server.stop()
    }

    @Test func aFormatTransformRoundsIconCornersAndStoresThemAsPNG() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 32, height: 32), at: "icon.jpg")
        let iconURL = server.imageURL("icon.jpg")
        let shown = Outcome<Image>()
        let show = shown.succeed

        let iconFormat = Format<Image>(name: "icons", diskCapacity: 10 * 1024 * 1024) { image in
            return imageByRoundingCornersOfImage(image)
        }
        Shared.imageCache.addFormat(iconFormat)

        Shared.imageCache.fetch(URL: iconURL, formatName: "icons").onSuccess { image in
            show(image)
        }

        #expect(await shown.wait())
        let icon = try #require(shown.value)
        #expect(icon.pixel(x: 0, y: 0).alpha == 0)
        #expect(icon.pixel(x: 16, y: 16).alpha == 255)
        // The rounded icon goes to the format's own directory, as PNG (it now has transparency).
        let file = (Shared.imageCache.cachePath as NSString).appendingPathComponent(
            "icons/"
                + iconURL.absoluteString
                .replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "/", with: "%2F"))
        #expect(await eventually { FileManager.default.contents(atPath: file)?.starts(with: [0x89, 0x50]) == true })
        await server.stop()
    }

    @Test func aResizingFormatMakesThumbnails() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.jpeg(width: 400, height: 200), at: "photo.jpg")
        let photoURL = server.imageURL("photo.jpg")
        let shown = Outcome<Image>()
        let show = shown.succeed

        let thumbnails = HanekeGlobals.UIKit.formatWithSize(CGSize(width: 100, height: 100), scaleMode: .AspectFill)
        Shared.imageCache.addFormat(thumbnails)
        Shared.imageCache.fetch(URL: photoURL, formatName: thumbnails.name).onSuccess { thumbnail in
            show(thumbnail)
        }

        #expect(await shown.wait())
        #expect(shown.value?.width == 200 && shown.value?.height == 100)
        await server.stop()
    }

    @Test func aCustomFetcherFillsTheCacheOnAMiss() async {
        let shown = Outcome<String>()
        let show = shown.succeed

        final class GreetingFetcher: Fetcher<String> {
            override func fetch(failure: @escaping (Error?) -> (), success: @escaping (String) -> ()) {
                success("Hello, \(key)")
            }
        }

        Shared.stringCache.fetch(fetcher: GreetingFetcher(key: "Linux")).onSuccess { greeting in
            show(greeting)
        }

        #expect(await shown.wait())
        #expect(shown.values == ["Hello, Linux"])
        var cached: String?
        Shared.stringCache.fetch(key: "Linux").onSuccess { cached = $0 }
        #expect(cached == "Hello, Linux")
    }

    @Test func aMissIsRecognisedByDomainAndCode() async {
        let misses = Outcome<Void>()
        let fetchFromNetworkInstead = { misses.succeed(()) }

        Shared.dataCache.fetch(key: "never-stored").onFailure { error in
            if let error = error as NSError?, error.domain == HanekeGlobals.Domain,
                error.code == HanekeGlobals.Cache.ErrorCode.objectNotFound.rawValue
            {
                fetchFromNetworkInstead()
            }
        }

        #expect(await misses.wait())
    }

    @Test func removeAndRemoveAllEmptyTheCache() async {
        Shared.dataCache.set(value: Data("x".utf8), key: "funny-games.mp4")
        let reports = Outcome<String>()
        let report = reports.succeed

        let cache = Shared.dataCache
        cache.remove(key: "funny-games.mp4")
        cache.removeAll {
            report("emptied, \(cache.size) bytes left")
        }

        #expect(await reports.wait())
        #expect(reports.values == ["emptied, 0 bytes left"])
    }
}

/// The guide's main-queue example for a command-line program: compiled, not run (it never returns).
func runUntilFetched() -> Never {
    Shared.stringCache.fetch(key: "greeting").onSuccess { text in
        print(text)
        exit(0)
    }
    dispatchMain()
}
