import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// Writes a contact sheet of processed images for people to look at:
/// `.build/processors-sheet.png` (Imaging.docc/Processing.md shows a copy, Sources/Imaging/Imaging.docc/processors-sheet.png).
///
/// Row 1, a photo (kodim23): original fitted · fill+crop 192×192 · AlamofireImage aspect-fit on a
/// 192×192 canvas · rounded corners 24 · circle · circle with a white border · blur σ 8 ·
/// fill+crop, blur σ 3, rounded corners 32 with border.
/// Row 2, a transparent icon (tango address book, 128 px): original · shrunk to 48 then
/// upscaled back to 192 · shrunk to 64 · blur σ 4 · circle; then a 1-px checkerboard shrunk by
/// 3.05 (uniform grey: no aliasing) and the photo shrunk 8× then stretched to 192×96.
/// Transparent parts are shown over a grey checkerboard.
@Suite(.requiresCorpus("png-real")) struct ProcessorsSheetTests {
    static let cell = 208

    @Test func writesTheProcessorsSheet() throws {
        let photo = try Image(data: TestCorpus.data("png-real/kodim23.png"))
        let icon = try Image(data: TestCorpus.data("png-real/tango-icon-address-book-new-128-rsvg-convert.png"))
        let checker = TestImages.make(width: 192, height: 192, opaque: true) { x, y in
            (x + y) % 2 == 0 ? .white : .black
        }
        let border = ImageProcessors.Border(color: .white, width: 4)
        let square = Size(width: 192, height: 192)
        let photoProcessors: [any ImageProcessing] = [
            ImageProcessors.Resize(size: square, contentMode: .aspectFit),
            .resize(size: square, crop: true),
            ImageProcessors.Composition([.resize(size: square, contentMode: .aspectFit), .canvas(size: square)]),
            ImageProcessors.Composition([.resize(size: square, crop: true), .roundedCorners(radius: 24)]),
            ImageProcessors.Composition([.resize(size: square, crop: true), .circle()]),
            ImageProcessors.Composition([.resize(size: square, crop: true), .circle(border: border)]),
            ImageProcessors.Composition([.resize(size: square, crop: true), .gaussianBlur(radius: 8)]),
            ImageProcessors.Composition([
                .resize(size: square, crop: true), .gaussianBlur(radius: 3),
                .roundedCorners(radius: 32, border: border),
            ]),
        ]
        let iconProcessors: [any ImageProcessing] = [
            ImageProcessors.Anonymous(id: "identity") { $0 },
            ImageProcessors.Composition([.resize(width: 48), .resize(width: 192, upscale: true)]),
            .resize(width: 64),
            .gaussianBlur(radius: 4),
            .circle(),
        ]
        let rows: [[Image]] = [
            try photoProcessors.map { try $0.process(photo) },
            try iconProcessors.map { try $0.process(icon) } + [
                try ImageProcessors.Resize(width: 63).process(checker),
                try ImageProcessors.Composition([
                    .resize(width: 96),
                    .resize(size: Size(width: 192, height: 96), contentMode: .stretch, upscale: true),
                ]).process(photo),
            ],
        ]
        let sheet = compose(rows)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                ".build/processors-sheet.png")
        try sheet.pngData().write(to: url)
        #expect(sheet.width == 8 * Self.cell && sheet.height == 2 * Self.cell)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    /// Each image centred in a cell, over a checkerboard where it is transparent.
    func compose(_ rows: [[Image]]) -> Image {
        let cell = Self.cell
        let width = cell * (rows.map(\.count).max() ?? 1), height = cell * rows.count
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let v: UInt8 = ((x / 8 + y / 8) % 2 == 0) ? 200 : 160
                bytes.replaceSubrange((y * width + x) * 4..<(y * width + x) * 4 + 4, with: [v, v, v, 255])
            }
        }
        for (r, row) in rows.enumerated() {
            for (c, image) in row.enumerated() {
                let straight = image.converted(to: .rgba8)
                let ox = c * cell + (cell - image.width) / 2, oy = r * cell + (cell - image.height) / 2
                for y in 0..<min(image.height, cell) {
                    for x in 0..<min(image.width, cell) {
                        let p = straight.pixel(x: x, y: y)
                        let i = ((oy + y) * width + ox + x) * 4
                        let a = Int(p.alpha)
                        for (k, channel) in [p.red, p.green, p.blue].enumerated() {
                            bytes[i + k] = UInt8((Int(channel) * a + Int(bytes[i + k]) * (255 - a) + 127) / 255)
                        }
                    }
                }
            }
        }
        return Image(width: width, height: height, isOpaque: true, bytes: bytes)
    }
}
