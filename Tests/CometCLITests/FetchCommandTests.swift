@testable import CometCLI
import Comet
import FlyingFox
import Foundation
import XCTest

/// Runs `comet fetch` and `comet cache` as subprocesses against a real server in the test process.
final class FetchCommandTests: XCTestCase {
    func testFetchWritesGoodURLsReportsBadOnesAndCaches() async throws {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 300, logger: .disabled)
        let photo = try ImageEncoders.jpeg(PhotoPainter.paint(width: 640, height: 480, seed: 7))
        let png = try ImageEncoders.png(PhotoPainter.paint(width: 300, height: 400, seed: 8))
        await server.appendRoute("GET /photo.jpg") { _ in HTTPResponse(statusCode: .ok, body: photo) }
        await server.appendRoute("GET /tall.png") { _ in HTTPResponse(statusCode: .ok, body: png) }
        let runTask = Task { try await server.run() }
        defer { runTask.cancel() }
        try await server.waitUntilListening(timeout: 30)
        guard case .ip4(_, let port)? = await server.listeningAddress else { return XCTFail("no port") }
        let base = "http://127.0.0.1:\(port)"

        let temp = FileManager.default.temporaryDirectory.appendingPathComponent(
            "comet-fetch-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temp) }
        let environment = ["XDG_CACHE_HOME": temp.appendingPathComponent("xdg").path]
        let out = temp.appendingPathComponent("out")

        let first = try await CLIRunner.run(
            [
                "fetch", "\(base)/photo.jpg", "\(base)/missing.jpg", "\(base)/tall.png", "--resize", "64x48", "--out",
                out.path,
            ],
            environment: environment)
        XCTAssertEqual(first.status, 1, "one URL failed, so the exit code is 1")
        XCTAssertTrue(first.stderr.contains("missing.jpg") && first.stderr.contains("404"), first.stderr)
        let failure = try XCTUnwrap(first.stderr.split(separator: "\n").first { $0.contains("missing.jpg") })
        XCTAssertEqual(failure.components(separatedBy: "missing.jpg").count, 2, "the URL once: \(failure)")
        XCTAssertEqual(failure.components(separatedBy: "404").count, 2, "the status once: \(failure)")
        XCTAssertTrue(first.stdout.contains("2 saved, 1 failed"), first.stdout)
        for name in ["photo-64x48.jpg", "tall-64x48.jpg"] {
            let decoded = try ImageDecoders.decode(Data(contentsOf: out.appendingPathComponent(name)))
            XCTAssertEqual([decoded.image.width, decoded.image.height], [64, 48], name)
        }

        // The originals are in the disk cache now. Both were written within the same clock tick
        // or two, so their last use is set here: the photo a minute before the PNG.
        let cacheDirectory = temp.appendingPathComponent("xdg").appendingPathComponent(FetchCommand.cacheName)
        let lastUse = [
            "\(base)/photo.jpg": Date(timeIntervalSince1970: 1_700_000_000),
            "\(base)/tall.png": Date(timeIntervalSince1970: 1_700_000_060),
        ]
        let entries = CacheInspector(directory: cacheDirectory).entries()
        XCTAssertEqual(Set(entries.compactMap(\.key)), Set(lastUse.keys))
        for entry in entries {
            let date = try XCTUnwrap(entry.key.flatMap { lastUse[$0] }, entry.file)
            try FileManager.default.setAttributes(
                [.modificationDate: date],
                ofItemAtPath: cacheDirectory.appendingPathComponent(entry.file).path)
        }
        let stats = try await CLIRunner.run(["cache", "stats", "--json"], environment: environment)
        XCTAssertEqual(stats.status, 0, stats.stderr)
        let cache = try JSONDecoder.iso8601.decode(CacheStats.self, from: Data(stats.stdout.utf8))
        XCTAssertEqual(cache.totalCount, 2)
        XCTAssertGreaterThan(cache.totalSize, photo.count + png.count)
        XCTAssertEqual(cache.oldest?.key, "\(base)/photo.jpg")
        XCTAssertEqual(cache.newest?.key, "\(base)/tall.png")

        // A second fetch, fit mode and PNG output, is served from the disk cache.
        let second = try await CLIRunner.run(
            ["fetch", "\(base)/photo.jpg", "--resize", "100", "--mode", "fit", "--format", "png", "--out", out.path],
            environment: environment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("disk cache hits 1"), second.stdout)
        let fitted = try ImageDecoders.decode(Data(contentsOf: out.appendingPathComponent("photo-100x100.png")))
        XCTAssertEqual([fitted.image.width, fitted.image.height], [100, 75])

        let clear = try await CLIRunner.run(["cache", "clear"], environment: environment)
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertTrue(clear.stdout.contains("Removed 2 entries"), clear.stdout)
        await server.stop(timeout: 1)
    }

    func testThumbnailSizeParsing() {
        XCTAssertEqual(ThumbnailSize(argument: "256x128").map { [$0.width, $0.height] }, [256, 128])
        XCTAssertEqual(ThumbnailSize(argument: "300").map { [$0.width, $0.height] }, [300, 300])
        XCTAssertNil(ThumbnailSize(argument: "0x10"))
        XCTAssertNil(ThumbnailSize(argument: "wide"))
    }

    func testFetchPlanNamesAreUniqueAndNeverASource() {
        let directory = URL(fileURLWithPath: "/tmp/out")
        let plan = FetchPlan(
            arguments: ["https://a.example/x/cat.jpg", "https://b.example/cat.png", "/tmp/out/dog.jpg", "ftp://h/"],
            resize: nil, outputDirectory: directory)
        XCTAssertEqual(plan.items.map(\.outputBase.lastPathComponent), ["cat", "cat-2", "dog-2", "image"])
        XCTAssertEqual(plan.items[2].url, URL(fileURLWithPath: "/tmp/out/dog.jpg"))
    }
}

extension JSONDecoder {
    /// A decoder for ISO 8601 dates.
    static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
