import Locking
import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet
import CometTestSupport

/// Keys and URLs chosen to escape the cache directory or to collide: they never produce a path
/// outside the directory, and never read back another key's data. Credentials never follow a
/// redirect to another host.
@Suite("Hostile keys and redirects", .timeLimit(.minutes(10)))
struct HostileKeyTests {
    static let hostileKeys = [
        "../../../../etc/passwd", "/etc/passwd", "..", ".", "", "a/b", "a\0b", "\0",
        ".comet-tmp-123", String(repeating: "k", count: 10_000), "%2e%2e%2fescape", "ä/../ö", "\\..\\..\\x",
    ]

    /// A cache directory inside a fresh parent, so anything written beside it shows.
    private func makeSandbox() throws -> (parent: URL, cacheDirectory: URL) {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("comet-hostile-\(UUID().uuidString)")
        let directory = parent.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (parent, directory)
    }

    private func contents(of directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test func defaultFileNamesKeepEveryHostileKeyInsideTheDirectory() throws {
        let (parent, directory) = try makeSandbox()
        defer { try? FileManager.default.removeItem(at: parent) }
        let cache = DataCache(path: directory)
        for (index, key) in Self.hostileKeys.enumerated() { cache.storeData(Data([UInt8(index)]), for: key) }
        cache.flush()
        #expect(contents(of: parent) == ["cache"])
        let names = contents(of: directory)
        // The empty key is ignored, as Nuke's DataCache ignores it: every other key has a file.
        #expect(names.count == Self.hostileKeys.count - 1)
        #expect(names.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        let reopened = DataCache(path: directory)
        for (index, key) in Self.hostileKeys.enumerated() {
            let expected = key.isEmpty ? nil : Data([UInt8(index)])
            #expect(reopened.cachedData(for: key) == expected, "\(key.prefix(40))")
        }
    }

    @Test func passThroughFileNamesRefuseKeysThatAreNotOneSafeComponent() throws {
        let (parent, directory) = try makeSandbox()
        defer { try? FileManager.default.removeItem(at: parent) }
        let cache = DataCache(path: directory, filenameGenerator: { $0 })
        for key in Self.hostileKeys { cache.storeData(Data("x".utf8), for: key) }
        cache.storeData(Data("plain".utf8), for: "plain-key")
        cache.flush()
        #expect(contents(of: parent) == ["cache"])
        // Only the keys that are themselves one safe file name were stored (a backslash is an
        // ordinary character in a POSIX file name).
        let safe: Set = ["%2e%2e%2fescape", "\\..\\..\\x"]
        #expect(contents(of: directory) == (safe.sorted() + ["plain-key"]).sorted())
        for key in Self.hostileKeys where !safe.contains(key) {
            #expect(!cache.containsData(for: key), "\(key.prefix(40))")
        }
    }

    @Test func similarURLsKeepTheirOwnEntriesThroughThePipeline() throws {
        let (parent, directory) = try makeSandbox()
        defer { try? FileManager.default.removeItem(at: parent) }
        let dataCache = DataCache(path: directory)
        let pipeline = ImagePipeline {
            $0.dataCache = dataCache; $0.imageCache = ImageCache()
        }
        let urls = [
            "http://h/a/../b.jpg", "http://h/b.jpg", "http://h/b.jpg?", "http://h/b.jpg#x", "http://H/b.jpg",
            "http://h/b%2Ejpg", "http://h//b.jpg", "file:///etc/passwd",
            "http://h/\(String(repeating: "a", count: 5000))",
        ]
        let requests = urls.map { ImageRequest(url: URL(string: $0)!) }
        for (index, request) in requests.enumerated() {
            pipeline.cache.storeCachedData(Data([UInt8(index)]), for: request)
        }
        dataCache.flush()
        for (index, request) in requests.enumerated() {
            #expect(pipeline.cache.cachedData(for: request) == Data([UInt8(index)]), "\(urls[index].prefix(40))")
        }
        #expect(contents(of: parent) == ["cache"])
    }

    @Test func authorizationIsNotSentToAnotherHostAfterARedirect() async throws {
        let origin = try await TestServer.start()
        let other = try await TestServer.start()
        let seen = Locked<[String: String?]>([:])
        let image = TestImages.jpeg(width: 20, height: 10)
        origin.handle("/same.jpg") { request in
            seen.withLock { $0["origin"] = request.headers[.authorization] }
            return HTTPResponse(statusCode: .found, headers: [.location: "/images/same-host.jpg"], body: Data())
        }
        origin.serve(image, at: "same-host.jpg")
        origin.handle("/away.jpg") { request in
            // "localhost" is another host name than 127.0.0.1, on another port.
            HTTPResponse(
                statusCode: .found, headers: [.location: "http://localhost:\(other.port)/landing.jpg"], body: Data())
        }
        other.handle("/landing.jpg") { request in
            seen.withLock { $0["other"] = request.headers[.authorization] }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "image/jpeg"], body: image)
        }
        let (pipeline, _) = makeRealPipeline()
        for path in ["/same.jpg", "/away.jpg"] {
            var urlRequest = URLRequest(url: origin.url(path))
            urlRequest.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            #expect(try await pipeline.image(for: ImageRequest(urlRequest: urlRequest)).width == 20)
        }
        #expect(seen.withLock { $0["origin"] } == .some("Bearer secret"))
        #expect(seen.withLock { $0["other"] } == .some(nil), "the other host must not see the credentials")
    }
}
