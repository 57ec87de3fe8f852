@testable import CometCLI
import Comet
import Foundation
import XCTest

/// `comet fetch --format webp|webp-lossless|avif` and `comet info` on the newer formats, run as
/// subprocesses on local files.
final class FormatsCommandTests: XCTestCase {
    private var temp: URL!

    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("comet-formats-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: temp) }

    func testFetchWritesEachNewFormat() async throws {
        let source = temp.appendingPathComponent("photo.jpg")
        try ImageEncoders.jpeg(PhotoPainter.paint(width: 320, height: 240, seed: 3)).write(to: source)
        for (format, type) in [("webp", AssetType.webp), ("webp-lossless", .webp), ("avif", .avif)] {
            let out = temp.appendingPathComponent(format)
            let result = try await CLIRunner.run([
                "fetch", source.path, "--resize", "64x48", "--format", format,
                "--no-disk-cache", "--out", out.path,
            ])
            XCTAssertEqual(result.status, 0, result.stderr)
            let ext = type == .webp ? "webp" : "avif"
            let decoded = try ImageDecoders.decode(Data(contentsOf: out.appendingPathComponent("photo-64x48.\(ext)")))
            XCTAssertEqual(decoded.type, type, format)
            XCTAssertEqual([decoded.image.width, decoded.image.height], [64, 48], format)
        }
    }

    func testInfoPrintsFramesOfAnAnimationAndOneFrameOfAStill() async throws {
        let frames = (0..<3).map {
            AnimatedImage.Frame(
                image: Image(width: 8, height: 6, color: RGBA8(red: UInt8($0 * 80), green: 0, blue: 0, alpha: 255)),
                duration: 0.25)
        }
        let animated = temp.appendingPathComponent("a.webp")
        try ImageEncoders.animatedWebP(
            AnimatedImage(type: .webp, frames: frames, loopCount: 0, data: Data()), lossless: true
        ).write(to: animated)
        let still = temp.appendingPathComponent("s.avif")
        try ImageEncoders.avif(Image(width: 10, height: 4, color: RGBA8(red: 9, green: 9, blue: 9, alpha: 255))).write(
            to: still)
        let result = try await CLIRunner.run(["info", animated.path, still.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("a.webp: WebP 8×6, 3 frames, 0.75 s, looping"), result.stdout)
        XCTAssertTrue(result.stdout.contains("s.avif: AVIF 10×4, 1 frame"), result.stdout)
    }

    func testInfoSaysWhatWasDoneWithAColourProfile() async throws {
        let red = Image(width: 8, height: 6, color: RGBA8(red: 200, green: 20, blue: 40))
        let tagged = temp.appendingPathComponent("p3.png")
        try ImageEncoders.png(red.withColorProfile(.displayP3)).write(to: tagged)
        let untagged = temp.appendingPathComponent("plain.png")
        try ImageEncoders.png(red).write(to: untagged)
        let result = try await CLIRunner.run(["info", tagged.path, untagged.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stdout.contains("p3.png: PNG 8×6, 1 frame, colour profile Display P3, converted to sRGB"),
            result.stdout)
        XCTAssertTrue(result.stdout.contains("plain.png: PNG 8×6, 1 frame\n"), result.stdout)
    }
}
