@testable import Imaging

/// Small synthetic images for the processor tests.
enum TestImages {
    /// An image whose pixel at (x, y) is `color(x, y)`.
    static func make(
        width: Int, height: Int, format: PixelFormat = .rgba8, opaque: Bool = false,
        _ color: (Int, Int) -> RGBA8
    ) -> Image {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                bytes += [c.red, c.green, c.blue, c.alpha]
            }
        }
        return Image(width: width, height: height, pixelFormat: format, isOpaque: opaque, bytes: bytes)
    }

    /// Opaque: red left of column `split`, blue from it on.
    static func redBlue(width: Int, height: Int, split: Int) -> Image {
        make(width: width, height: height, opaque: true) { x, _ in
            x < split ? RGBA8(red: 255, green: 0, blue: 0) : RGBA8(red: 0, green: 0, blue: 255)
        }
    }

    /// A deterministic pseudo-random opaque image.
    static func noise(width: Int, height: Int, seed: UInt64 = 42) -> Image {
        var state = seed
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return make(width: width, height: height, opaque: true) { _, _ in
            RGBA8(red: next(), green: next(), blue: next())
        }
    }
}

/// Every pixel of `image`, row by row.
func allPixels(_ image: Image) -> [RGBA8] {
    (0..<image.height).flatMap { y in (0..<image.width).map { x in image.pixel(x: x, y: y) } }
}
