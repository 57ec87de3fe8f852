import Comet
@testable import CometServer
import Foundation
import Testing

@Suite("The wm option and the server's watermark image")
struct WatermarkOptionTests {
    private func request(_ options: String, watermark: WatermarkImage?) throws(ServiceError) -> ThumbnailRequest {
        var configuration = ServerConfiguration()
        configuration.watermark = watermark
        let source = Base64URL.encode(Array("http://example.com/a.jpg".utf8))
        let optionsPart = options.isEmpty ? "" : "/\(options)"
        return try ThumbnailRequest(
            path: "/unsigned\(optionsPart)/\(source)", accept: nil, configuration: configuration)
    }

    private static func mark(_ id: String) -> WatermarkImage {
        WatermarkImage(image: Image(width: 2, height: 2, color: RGBA8(red: 0, green: 0, blue: 255)), id: id)
    }

    @Test(arguments: [
        ("wm:0.5", "wm:0.5:ce:0:0:0"), ("watermark:1:re:5:5", "wm:1:re:5:5:0"),
        ("wm:1:soea:0.1:10:0.25", "wm:1:soea:0.1:10:0.25"),
        ("wm:0", ""),
    ])
    func aWatermarkIsSpelledWithEveryArgument(_ segment: String, _ canonical: String) throws {
        #expect(try ThumbnailOptions.parse(segment, maximumDimension: 4096).canonical == canonical)
    }

    @Test func aServerWithoutAWatermarkImageRefusesWm() {
        let error = #expect(throws: ServiceError.self) { try request("wm:1", watermark: nil) }
        #expect(error?.status == 400 && error?.message.hasPrefix("wm") == true)
    }

    @Test func theWatermarkImageIsPartOfTheKeyOnlyOfURLsThatDrawIt() throws {
        let one = Self.mark("one")
        let other = Self.mark("other")
        #expect(try request("rs:fit:10:10", watermark: one).key == request("rs:fit:10:10", watermark: other).key)
        #expect(try request("rs:fit:10:10", watermark: one).key == request("rs:fit:10:10", watermark: nil).key)
        #expect(try request("wm:1", watermark: one).key != request("wm:1", watermark: other).key)
    }

    @Test func theWatermarkIsDrawnLastAfterThePadding() throws {
        let plan = try request("pd:2/wm:1/sh:1", watermark: Self.mark("one")).plan
        #expect(plan.processors.map(\.identifier).last?.hasPrefix("com.comet.server.watermark?overlay=one") == true)
    }

    @Test func aWatermarkFileIsDecodedAndNamedByItsContent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("comet-watermark-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ color: RGBA8, _ name: String) throws -> String {
            let file = folder.appendingPathComponent(name)
            try Data(ImageEncoders.png(Image(width: 3, height: 2, color: color))).write(to: file)
            return file.path
        }
        let blue = try WatermarkImage.load(path: write(RGBA8(red: 0, green: 0, blue: 255), "blue.png"))
        let again = try WatermarkImage.load(path: write(RGBA8(red: 0, green: 0, blue: 255), "again.png"))
        let red = try WatermarkImage.load(path: write(RGBA8(red: 255, green: 0, blue: 0), "red.png"))
        #expect(blue.image.width == 3 && blue.image.height == 2 && blue.image.pixel(x: 1, y: 1).blue == 255)
        #expect(blue.id == again.id && blue.id != red.id && blue.id.count == 16)
        #expect(throws: (any Error).self) { try WatermarkImage.load(path: folder.appendingPathComponent("none").path) }
    }
}
