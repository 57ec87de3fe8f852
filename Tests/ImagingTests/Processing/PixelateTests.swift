import Testing
@testable import Imaging

/// Pixelation: blocks from the top left, each the rounded average of what it covers.
@Suite struct PixelateTests {
    /// Every block's average worked out directly from the pixels, in doubles, premultiplied (the
    /// stored values of a premultiplied image, straight ones multiplied by alpha).
    func reference(_ image: Image, size: Int) -> [RGBA8] {
        let pixels = image.pixelFormat == .rgba8 ? allPixels(image).map(\.premultiplied) : allPixels(image)
        var output = pixels
        for top in stride(from: 0, to: image.height, by: size) {
            for left in stride(from: 0, to: image.width, by: size) {
                let xs = left..<min(left + size, image.width), ys = top..<min(top + size, image.height)
                var sum = [Double](repeating: 0, count: 4)
                for y in ys {
                    for x in xs {
                        let p = pixels[y * image.width + x]
                        for (c, v) in [p.red, p.green, p.blue, p.alpha].enumerated() { sum[c] += Double(v) }
                    }
                }
                let n = Double(xs.count * ys.count)
                let mean = sum.map { UInt8(($0 / n).rounded()) }
                for y in ys {
                    for x in xs {
                        output[y * image.width + x] = RGBA8(red: mean[0], green: mean[1], blue: mean[2], alpha: mean[3])
                    }
                }
            }
        }
        return output
    }

    @Test func opaqueBlocksAreTheirAverage() throws {
        // 37×23 with 8-pixel blocks: the last column and row of blocks are cut short.
        let image = TestImages.noise(width: 37, height: 23)
        let output = try ImageProcessors.Pixelate(size: 8).process(image)
        #expect((output.width, output.height) == (37, 23))
        #expect(allPixels(output) == reference(image, size: 8))
    }

    @Test func premultipliedBlocksAreTheirAverage() throws {
        let image = TestImages.make(width: 19, height: 11, format: .rgba8Premultiplied) { x, y in
            let a = UInt8((x * 13 + y * 7) % 256)
            return RGBA8(red: a / 2, green: a, blue: a / 3, alpha: a)
        }
        let output = try ImageProcessors.Pixelate(size: 5).process(image)
        #expect(allPixels(output) == reference(image, size: 5))
    }

    @Test func transparentPixelsDoNotDarkenABlock() throws {
        // Half opaque white, half transparent black: the block is white at half opacity.
        let image = TestImages.make(width: 4, height: 4) { x, _ in x < 2 ? .white : .clear }
        let p = try ImageProcessors.Pixelate(size: 4).process(image).pixel(x: 0, y: 0)
        #expect(p.alpha == 128 && p.red >= 254 && p.green >= 254 && p.blue >= 254, "\(p)")
    }

    @Test func blocksOfOnePixelReturnTheImage() throws {
        let image = TestImages.noise(width: 5, height: 5)
        #expect(try ImageProcessors.Pixelate(size: 1).process(image) == image)
    }

    @Test func sizesOutsideTheLimitsAreRejected() {
        for size in [0, -3, ImageProcessors.Pixelate.maximumSize + 1] {
            #expect(throws: ImageProcessingError.self, "size \(size)") {
                try ImageProcessors.Pixelate(size: size).validate()
            }
        }
    }
}
