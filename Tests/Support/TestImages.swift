import Foundation
import Imaging

/// Images made on the fly for tests: a gradient (so resizes and decodes give distinct pixels).
public enum TestImages {
    public static func image(width: Int = 64, height: Int = 48, alpha: Bool = false) -> Image {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                bytes += [
                    UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), UInt8((x ^ y) & 0xFF),
                    alpha ? UInt8((x + y) & 0xFF) : 255,
                ]
            }
        }
        return Image(width: width, height: height, isOpaque: !alpha, bytes: bytes)
    }

    public static func jpeg(width: Int = 64, height: Int = 48, progressive: Bool = false) -> Data {
        try! ImageEncoders.jpeg(image(width: width, height: height), quality: 0.9, progressive: progressive)
    }

    public static func png(width: Int = 64, height: Int = 48) -> Data {
        try! image(width: width, height: height, alpha: true).pngData()
    }

    public static func webp(width: Int = 64, height: Int = 48, alpha: Bool = false, lossless: Bool = false) -> Data {
        try! ImageEncoders.webp(image(width: width, height: height, alpha: alpha), quality: 0.9, lossless: lossless)
    }

    public static func avif(width: Int = 64, height: Int = 48) -> Data {
        try! ImageEncoders.avif(image(width: width, height: height), quality: 0.8)
    }

    /// A `frames`-frame animated GIF of `width`×`height`: frame i fills the canvas with palette
    /// colour i (red, green, blue, then grays), 0.1 s a frame, looping forever.
    public static func animatedGIF(width: Int = 16, height: Int = 8, frames: Int = 3) -> Data {
        let palette: [(UInt8, UInt8, UInt8)] =
            [(255, 0, 0), (0, 255, 0), (0, 0, 255)] + (3..<128).map { (UInt8($0), UInt8($0), UInt8($0)) }
        let all = (0..<frames).map {
            GIFWriter.Frame(
                width: width, height: height, indices: Array(repeating: UInt8($0 % 128), count: width * height))
        }
        return GIFWriter(width: width, height: height, globalPalette: palette, loopCount: 0, frames: all).data
    }
}
