import Testing
@testable import Imaging

/// thumbor's `brightness`, `contrast` and `grayscale` filters, checked byte by byte against
/// their definitions worked out here in doubles.
@Suite struct ToneTests {
    let noise = TestImages.noise(width: 31, height: 17)

    /// `image` with each colour byte mapped by `f` (rounded, clamped) and alpha kept.
    func mapped(_ image: Image, _ f: (Double) -> Double) -> [UInt8] {
        image.packedBytes.enumerated().map { i, v in i % 4 == 3 ? v : UInt8(min(max(f(Double(v)), 0), 255).rounded()) }
    }

    @Test(arguments: [40.0, -40, 7.5])
    func brightnessAddsItsPercentOfFullScale(amount: Double) throws {
        let output = try ImageProcessors.Brightness(amount: amount).process(noise)
        #expect(output.packedBytes == mapped(noise) { $0 + (2.55 * amount).rounded() })
    }

    @Test func fullBrightnessIsWhiteAndNoneIsBlack() throws {
        #expect(Set(allPixels(try ImageProcessors.Brightness(amount: 100).process(noise))) == [.white])
        #expect(Set(allPixels(try ImageProcessors.Brightness(amount: -100).process(noise))) == [.black])
    }

    @Test(arguments: [40.0, -40, 90])
    func contrastScalesAroundMidGreyByThumborsFactor(amount: Double) throws {
        let c = amount * 2.55
        let factor = 259 * (c + 255) / (255 * (259 - c))
        let output = try ImageProcessors.Contrast(amount: amount).process(noise)
        #expect(EffectReferences.maxDifference(output.packedBytes, mapped(noise) { factor * ($0 - 128) + 128 }) <= 1)
    }

    @Test func lowestContrastIsFlatGrey() throws {
        let output = try ImageProcessors.Contrast(amount: -100).process(noise)
        #expect(Set(allPixels(output)) == [RGBA8(red: 128, green: 128, blue: 128)])
    }

    @Test func toneChangesApplyToStraightColourAndKeepAlpha() throws {
        // Premultiplied at alpha 128: the colour a person sees is 200, brightened by 20% to 251.
        let image = Image(
            width: 3, height: 2, color: RGBA8(red: 200, green: 200, blue: 200, alpha: 128),
            pixelFormat: .rgba8Premultiplied)
        let p = try ImageProcessors.Brightness(amount: 20).process(image).pixel(x: 1, y: 1).unpremultiplied
        #expect(p.alpha == 128 && abs(Int(p.red) - 251) <= 2, "\(p)")
    }

    @Test func amountsOutsideThumborsRangeAreRejected() {
        for amount in [-101.0, 100.5, .nan] {
            #expect(throws: ImageProcessingError.self) { try ImageProcessors.Brightness(amount: amount).validate() }
            #expect(throws: ImageProcessingError.self) { try ImageProcessors.Contrast(amount: amount).validate() }
        }
    }

    @Test func grayscaleIsBT601Luma() throws {
        let image = TestImages.make(width: 16, height: 16) { x, y in
            RGBA8(red: UInt8(x * 16), green: UInt8(y * 16), blue: UInt8((x * y) % 256), alpha: UInt8(255 - x))
        }
        let output = try ImageProcessors.Grayscale().process(image)
        for (o, i) in zip(allPixels(output), allPixels(image)) {
            let luma = 0.299 * Double(i.red) + 0.587 * Double(i.green) + 0.114 * Double(i.blue)
            #expect(o.red == o.green && o.green == o.blue && o.alpha == i.alpha)
            #expect(abs(Double(o.red) - luma) <= 0.51, "\(i) → \(o)")
        }
    }

    @Test func identifiersNameTheAmount() {
        #expect(ImageProcessors.Brightness(amount: 40).identifier == "com.comet.brightness?amount=40")
        #expect(ImageProcessors.Contrast(amount: -12.5).identifier == "com.comet.contrast?amount=-12.5")
        #expect(ImageProcessors.Grayscale().identifier == "com.comet.grayscale")
    }
}
