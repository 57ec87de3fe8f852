import Foundation
import Imaging

/// Images made on the fly for tests: a gradient (so resizes and decodes give distinct pixels).
public enum TestImages {
    public static func image(width: Int = 64, height: Int = 48, alpha: Bool = false) -> Image {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), UInt8((x ^ y) & 0xFF),
                          alpha ? UInt8((x + y) & 0xFF) : 255]
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
}
