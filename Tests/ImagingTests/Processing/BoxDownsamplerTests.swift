import Testing
@testable import Imaging

/// The whole-block shrink of the area average: exact block averages, and only where it applies.
@Suite struct BoxDownsamplerTests {
    @Test func fillAndCropByAWholeFactorIsTheExactRoundedBlockAverage() throws {
        // 48×36 filled and cropped to 12×12: the centre 36×36 in 3×3 blocks.
        let image = TestImages.noise(width: 48, height: 36)
        #expect(image.isOpaque)
        let output = try ImageProcessors.Resize(size: Size(width: 12, height: 12), crop: true, filter: .areaAverage)
            .process(image)
        for y in 0..<12 {
            for x in 0..<12 {
                var sums = [0, 0, 0, 0]
                for dy in 0..<3 {
                    for dx in 0..<3 {
                        let p = image.pixel(x: 6 + 3 * x + dx, y: 3 * y + dy)
                        sums[0] += Int(p.red); sums[1] += Int(p.green); sums[2] += Int(p.blue); sums[3] += Int(p.alpha)
                    }
                }
                let expected = sums.map { UInt8(($0 + 4) / 9) }
                let p = output.pixel(x: x, y: y)
                #expect([p.red, p.green, p.blue, p.alpha] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func unequalWholeFactorsPerAxisAreAveragedToo() throws {
        let image = TestImages.noise(width: 40, height: 30)
        let rect = Resampler.SourceRect(x: 0, y: 0, width: 40, height: 30)
        let output = try #require(BoxDownsampler.downsample(image, rect: rect, width: 10, height: 15))
        let p = output.pixel(x: 9, y: 14)
        var green = 0
        for dy in 0..<2 { for dx in 0..<4 { green += Int(image.pixel(x: 36 + dx, y: 28 + dy).green) } }
        #expect(p.green == UInt8((green + 4) / 8))
    }

    @Test func fractionalSpansAndStraightAlphaTakeTheGeneralPath() {
        let opaque = TestImages.noise(width: 50, height: 50)
        #expect(
            BoxDownsampler.downsample(opaque, rect: .init(x: 0, y: 0, width: 50, height: 50), width: 20, height: 20)
                == nil)
        #expect(
            BoxDownsampler.downsample(opaque, rect: .init(x: 0.5, y: 0, width: 40, height: 40), width: 20, height: 20)
                == nil)
        let translucent = Image(width: 40, height: 40, color: RGBA8(red: 10, green: 20, blue: 30, alpha: 128))
        #expect(!translucent.isOpaque && translucent.pixelFormat == .rgba8)
        #expect(
            BoxDownsampler.downsample(
                translucent, rect: .init(x: 0, y: 0, width: 40, height: 40), width: 20, height: 20) == nil)
    }

    @Test func aViewWithPaddedRowsIsAveragedLikeACopy() throws {
        let big = TestImages.noise(width: 100, height: 80)
        let view = big.cropped(x: 5, y: 3, width: 60, height: 45)
        let copy = Image(width: 60, height: 45, isOpaque: true, bytes: view.packedBytes)
        let resize = ImageProcessors.Resize(size: Size(width: 15, height: 15), crop: true, filter: .areaAverage)
        #expect(try resize.process(view) == resize.process(copy))
        #expect(try resize.process(view).width == 15)
    }
}
