@testable import CometCLI
import Comet
import Foundation
import XCTest

/// Runs `comet demo --count 12 --json` as a subprocess and checks its files and summary.
final class DemoCommandTests: XCTestCase {
    func testDemoWritesSheetAndGalleryAndHitsEveryCacheLevel() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("comet-demo-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLIRunner.run(["demo", "--count", "12", "--json", "--out", out.path])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        let summary = try JSONDecoder().decode(DemoSummary.self, from: Data(result.stdout.utf8))

        // The summary: no failures; pass 2 all memory hits; a fresh pipeline all disk hits.
        XCTAssertEqual(summary.images, 12)
        XCTAssertEqual(summary.failures, 0, "\(summary.errors)")
        XCTAssertEqual(summary.passes.map(\.name), ["network", "memory", "disk"])
        let (network, memory, disk) = (summary.passes[0], summary.passes[1], summary.passes[2])
        XCTAssertEqual(network.downloads, 12, "one download per distinct image")
        XCTAssertGreaterThan(network.coalescedRequests, 0, "the repeated images join work in flight")
        XCTAssertEqual(network.loadedResponses, network.requests)
        XCTAssertEqual(memory.memoryResponses, memory.requests, "the second pass is all memory hits")
        XCTAssertEqual(memory.downloads, 0)
        XCTAssertEqual(memory.bytesDownloaded, 0)
        XCTAssertEqual(disk.diskResponses, disk.requests, "the fresh pipeline is all disk hits")
        XCTAssertEqual(disk.diskCacheHits, 12, "one disk read per distinct image")
        XCTAssertEqual(disk.downloads, 0)
        XCTAssertEqual(summary.bytesDownloaded, summary.galleryBytes, "each image is downloaded exactly once")
        XCTAssertNotNil(summary.peakMemoryBytes)

        // The large image: the thumbnail arrives first, then the 6000×4000 original.
        let arrivals = try XCTUnwrap(summary.largeImage?.arrivals)
        XCTAssertEqual(arrivals.map(\.stage), ["thumbnail", "full"])
        XCTAssertEqual(arrivals.map(\.width), [256, 6000])
        XCTAssertEqual(arrivals.map(\.height), [256, 4000])

        // The contact sheet decodes and has the layout's size.
        let sheetData = try Data(contentsOf: out.appendingPathComponent("contact-sheet.png"))
        let sheet = try ImageDecoders.decode(sheetData)
        XCTAssertEqual(sheet.type, .png)
        let expected = ContactSheet.size(for: 12)
        XCTAssertEqual([sheet.image.width, sheet.image.height], [expected.width, expected.height])
        XCTAssertEqual([summary.contactSheet.width, summary.contactSheet.height], [expected.width, expected.height])

        // The page references every thumbnail, and every thumbnail is a 256×256 JPEG.
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        let thumbnails = try FileManager.default.contentsOfDirectory(
            atPath: out.appendingPathComponent("thumbnails").path)
        XCTAssertEqual(thumbnails.count, 12)
        XCTAssertEqual(summary.thumbnails.count, 12)
        for name in thumbnails {
            XCTAssertTrue(html.contains("src=\"thumbnails/\(name)\""), "index.html does not show \(name)")
            let decoded = try ImageDecoders.decode(Data(contentsOf: out.appendingPathComponent("thumbnails/\(name)")))
            XCTAssertEqual([decoded.image.width, decoded.image.height], [256, 256], name)
        }
        XCTAssertTrue(html.contains("src=\"contact-sheet.png\""))
    }

    func testDemoWithoutDiskCacheSkipsTheDiskPass() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("comet-demo-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLIRunner.run([
            "demo", "--count", "3", "--no-disk-cache", "--json", "--quiet", "--out", out.path,
        ])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "", "--quiet prints no progress")
        let summary = try JSONDecoder().decode(DemoSummary.self, from: Data(result.stdout.utf8))
        XCTAssertEqual(summary.passes.map(\.name), ["network", "memory"])
        XCTAssertNil(summary.diskCache)
        XCTAssertEqual(summary.failures, 0)
        XCTAssertEqual(summary.largeImage?.arrivals.map(\.source), ["memory", "network"])
    }

    func testGalleryHasALargeAndAProgressiveJPEG() throws {
        let specs = GalleryGenerator(count: 12).specs
        XCTAssertEqual(specs.count, 12)
        XCTAssertTrue(specs.contains { $0.width >= 6000 && $0.height >= 4000 && $0.kind == .jpeg })
        XCTAssertTrue(specs.contains { $0.kind == .progressiveJPEG })
        XCTAssertTrue(
            specs.contains { $0.kind == .webp } && specs.contains { $0.kind == .avif }
                && specs.contains { $0.kind == .animatedGIF })
        XCTAssertEqual(Set(specs.map(\.name)).count, 12, "names are unique")
    }

    func testGeneratedWebPAVIFAndAnimatedGIFDecodeAsTheirFormats() throws {
        let specs = GalleryGenerator(count: 12).specs
        for kind in [GalleryAsset.Kind.webp, .avif, .animatedGIF] {
            let spec = try XCTUnwrap(specs.first { $0.kind == kind })
            let decoded = try ImageDecoders.decode(
                GalleryGenerator.encode(spec), options: ImageDecodingOptions(decodesAnimation: true))
            XCTAssertEqual([decoded.image.width, decoded.image.height], [spec.width, spec.height], "\(kind)")
            XCTAssertEqual(decoded.type, kind == .webp ? .webp : kind == .avif ? .avif : .gif)
            if kind == .animatedGIF { XCTAssertEqual(decoded.animation?.frames.count, 6) }
        }
    }

    func testContactSheetLayout() {
        XCTAssertEqual(ContactSheet.size(for: 1), Size(width: 144, height: 144))
        XCTAssertEqual(ContactSheet.size(for: 12), Size(width: 8 * 136 + 8, height: 2 * 136 + 8))
        XCTAssertEqual(ContactSheet.size(for: 40), Size(width: 8 * 136 + 8, height: 5 * 136 + 8))
    }

    func testHTMLEscaping() {
        XCTAssertEqual(HTMLGallery.escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }
}
