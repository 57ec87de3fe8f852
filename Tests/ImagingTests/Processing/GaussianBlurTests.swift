import Foundation
import Testing
@testable import Imaging

/// The three-box approximation of a Gaussian blur.
@Suite struct GaussianBlurTests {
    @Test func constantImageStaysConstant() throws {
        let opaque = Image(width: 50, height: 33, color: RGBA8(red: 10, green: 128, blue: 254))
        let translucent = Image(
            width: 50, height: 33, color: RGBA8(red: 10, green: 128, blue: 254, alpha: 77),
            pixelFormat: .rgba8Premultiplied)
        for radius in [1.0, 2.5, 8, 40] {
            for image in [opaque, translucent] {
                let output = try ImageProcessors.GaussianBlur(radius: radius).process(image)
                #expect(Set(allPixels(output)) == [image.pixel(x: 0, y: 0)], "radius \(radius), \(image)")
            }
        }
    }

    @Test func singleBrightPixelSpreadsSymmetrically() throws {
        let image = TestImages.make(width: 41, height: 41, opaque: true) { x, y in x == 20 && y == 20 ? .white : .black
        }
        let output = try ImageProcessors.GaussianBlur(radius: 3).process(image)
        #expect(output.pixel(x: 20, y: 20).red < 255 && output.pixel(x: 20, y: 20).red > 0)
        #expect(output.pixel(x: 23, y: 20).red > 0, "spreads over σ")
        for y in 0..<41 {
            for x in 0..<41 {
                let p = output.pixel(x: x, y: y)
                #expect(p == output.pixel(x: 40 - x, y: y) && p == output.pixel(x: x, y: 40 - y), "(\(x), \(y))")
                #expect(abs(Int(p.red) - Int(output.pixel(x: y, y: x).red)) <= 1, "diagonal (\(x), \(y))")
            }
        }
    }

    @Test(arguments: [3.0, 8.0])
    func errorAgainstATrueGaussianIsSmall(sigma: Double) throws {
        // Hard edges (a checkerboard of 24×16 blocks), one straight edge, and noise.
        let checker = TestImages.make(width: 96, height: 64, opaque: true) { x, y in
            (x / 24 + y / 16) % 2 == 0 ? .white : .black
        }
        let edge = TestImages.make(width: 96, height: 64, opaque: true) { x, _ in x < 40 ? .white : .black }
        let noise = TestImages.noise(width: 96, height: 64)
        for (name, image) in [("checker", checker), ("edge", edge), ("noise", noise)] {
            let fast = try ImageProcessors.GaussianBlur(radius: sigma).process(image)
            let difference = channelDifference(fast, trueGaussian(image, sigma: sigma))
            print(
                "GaussianBlur σ=\(sigma) vs true Gaussian (\(name)): max \(difference.max), mean \(String(format: "%.2f", difference.mean)) levels of 255"
            )
            #expect(difference.max <= 6, "\(name)")
            #expect(difference.mean <= 1.6, "\(name)")
        }
    }

    @Test func straightAlphaEdgesDoNotDarken() throws {
        // White next to transparent black: the blurred edge is white, fading out, never grey.
        let image = TestImages.make(width: 40, height: 10) { x, _ in x < 20 ? .white : .clear }
        let output = try ImageProcessors.GaussianBlur(radius: 4).process(image)
        for x in 0..<40 {
            let p = output.pixel(x: x, y: 5)
            if p.alpha > 8 { #expect(p.red >= 250, "x \(x): \(p)") }
        }
        #expect(output.pixel(x: 19, y: 5).alpha < 255 && output.pixel(x: 20, y: 5).alpha > 0)
    }

    @Test func wideBoxesUseTheThirtyTwoBitPathAndStayExact() throws {
        // σ 100 needs boxes wider than 127 pixels: the 32-bit kernels.
        #expect(BoxBlur.boxWidths(sigma: 100).allSatisfy { $0 > BoxBlur.maxWidth16 })
        let image = Image(width: 400, height: 30, color: RGBA8(red: 3, green: 250, blue: 77))
        #expect(
            Set(allPixels(try ImageProcessors.GaussianBlur(radius: 100).process(image))) == [
                RGBA8(red: 3, green: 250, blue: 77)
            ])
        let edge = TestImages.make(width: 400, height: 30, opaque: true) { x, _ in x < 200 ? .white : .black }
        let blurred = try ImageProcessors.GaussianBlur(radius: 100).process(edge)
        let reds = (0..<400).map { Int(blurred.pixel(x: $0, y: 10).red) }
        #expect(reds == reds.sorted(by: >), "a blurred step falls monotonically")
        #expect(abs(reds[199] + reds[200] - 255) <= 2, "and is symmetric about the edge")
    }

    @Test func straightAlphaConstantImageChangesOnlyByPremultiplicationRounding() throws {
        // Blurring premultiplies internally; at alpha 77 one premultiplied step is 255/77 ≈ 3.3 levels.
        let color = RGBA8(red: 10, green: 128, blue: 254, alpha: 77)
        let output = try ImageProcessors.GaussianBlur(radius: 8).process(Image(width: 50, height: 33, color: color))
        let pixels = Set(allPixels(output))
        #expect(pixels == [color.premultiplied.unpremultiplied])
        #expect(pixels.allSatisfy { abs(Int($0.green) - 128) <= 2 && $0.alpha == 77 })
    }

    @Test func zeroRadiusReturnsTheImage() throws {
        let image = TestImages.noise(width: 9, height: 9)
        #expect(try ImageProcessors.GaussianBlur(radius: 0).process(image) == image)
    }

    @Test func boxWidthsAreOddAndCloseToSigma() {
        for sigma in [2.0, 3, 8, 20] {
            let widths = BoxBlur.boxWidths(sigma: sigma)
            let variance = widths.reduce(0.0) { $0 + (Double($1 * $1) - 1) / 12 }
            #expect(widths.allSatisfy { $0 % 2 == 1 })
            #expect(abs(variance.squareRoot() - sigma) / sigma < 0.1, "σ \(sigma): \(widths)")
        }
        #expect(BoxBlur.boxWidths(sigma: 8) == [15, 15, 17])
    }

    /// A direct 2-D separable Gaussian in doubles (``EffectReferences/gaussian(_:sigma:)``),
    /// rounded to bytes.
    func trueGaussian(_ image: Image, sigma: Double) -> Image {
        let bytes = EffectReferences.gaussian(image, sigma: sigma).map { UInt8(min(max($0.rounded(), 0), 255)) }
        return Image(width: image.width, height: image.height, isOpaque: image.isOpaque, bytes: bytes)
    }
}
