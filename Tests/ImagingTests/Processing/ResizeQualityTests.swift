import Foundation
import Testing
@testable import Imaging

/// What resampling does to pixels: colours, edges, alpha, views.
@Suite struct ResizeQualityTests {
    @Test func resizedSolidColourStaysThatColour() throws {
        let color = RGBA8(red: 200, green: 17, blue: 99)
        let image = Image(width: 97, height: 61, color: color)
        for processor in [
            ImageProcessors.Resize(size: Size(width: 31, height: 31), crop: true),
            .init(size: Size(width: 23, height: 40), contentMode: .stretch),
            .init(size: Size(width: 300, height: 300), upscale: true),
        ] {
            let output = try processor.process(image)
            #expect(Set(allPixels(output)) == [color], "\(processor.identifier)")
            #expect(output.isOpaque)
        }
    }

    @Test func anAreaAveragedEdgeStaysInPlace() throws {
        // 120 wide, edge at column 60 → 40 wide at scale 1/3: edge exactly at column 20.
        let output = try ImageProcessors.Resize(width: 40, filter: .areaAverage).process(
            TestImages.redBlue(width: 120, height: 30, split: 60))
        #expect(output.pixel(x: 19, y: 5) == RGBA8(red: 255, green: 0, blue: 0))
        #expect(output.pixel(x: 20, y: 5) == RGBA8(red: 0, green: 0, blue: 255))
        // Edge at column 61 → 20.33: column 20 is one third red, two thirds blue.
        let shifted = try ImageProcessors.Resize(width: 40, filter: .areaAverage).process(
            TestImages.redBlue(width: 120, height: 30, split: 61))
        #expect(shifted.pixel(x: 20, y: 5) == RGBA8(red: 85, green: 0, blue: 170))
        #expect(shifted.pixel(x: 21, y: 5) == RGBA8(red: 0, green: 0, blue: 255))
    }

    @Test func aLanczos3EdgeStaysInPlaceAndSymmetric() throws {
        // The edge at column 60 of 120 lands between output columns 19 and 20 of 40: the two sides
        // mirror each other (red on one equals blue on the other), and each is mostly its colour.
        let output = try ImageProcessors.Resize(width: 40).process(
            TestImages.redBlue(width: 120, height: 30, split: 60))
        let (left, right) = (output.pixel(x: 19, y: 5), output.pixel(x: 20, y: 5))
        #expect(left.red == right.blue && left.blue == right.red)
        #expect(left.red > 200 && right.blue > 200)
        #expect(output.pixel(x: 10, y: 5) == RGBA8(red: 255, green: 0, blue: 0))
    }

    @Test func areaAveragingTurnsACheckerboardGrey() throws {
        // A one-pixel black/white checkerboard shrunk must turn grey, not a sampled pattern of
        // black and white: exactly mid-grey when halved, close to it at an odd ratio (~3×3 boxes).
        let checker = TestImages.make(width: 64, height: 64, opaque: true) { x, y in (x + y) % 2 == 0 ? .white : .black
        }
        for pixel in allPixels(try ImageProcessors.Resize(width: 32, filter: .areaAverage).process(checker)) {
            #expect(abs(Int(pixel.red) - 128) <= 1, "\(pixel)")
        }
        for pixel in allPixels(try ImageProcessors.Resize(width: 21, filter: .areaAverage).process(checker)) {
            #expect(abs(Int(pixel.red) - 128) <= 20, "\(pixel)")
        }
    }

    @Test func lanczos3TurnsACheckerboardGrey() throws {
        // Lanczos3 passes almost nothing at the source's Nyquist frequency: grey within a few
        // levels (its ripple), at the halving and at an odd ratio alike.
        let checker = TestImages.make(width: 64, height: 64, opaque: true) { x, y in (x + y) % 2 == 0 ? .white : .black
        }
        for width in [32, 21] {
            for pixel in allPixels(try ImageProcessors.Resize(width: width).process(checker)) {
                #expect(abs(Int(pixel.red) - 128) <= 8, "\(width): \(pixel)")
            }
        }
    }

    @Test func transparentNeighboursDoNotDarkenAlphaEdges() throws {
        // Opaque white next to fully transparent *black*: averaged without premultiplying, the
        // edge would turn grey. With premultiplied alpha it stays white, half transparent.
        let image = TestImages.make(width: 4, height: 2) { x, _ in x < 2 ? .white : .clear }
        let output = try ImageProcessors.Resize(size: Size(width: 1, height: 1), contentMode: .stretch).process(image)
        #expect(output.pixelFormat == .rgba8)
        #expect(output.pixel(x: 0, y: 0) == RGBA8(red: 255, green: 255, blue: 255, alpha: 128))
        #expect(!output.isOpaque)
    }

    @Test func premultipliedInputStaysPremultiplied() throws {
        let image = TestImages.make(width: 4, height: 2) { x, _ in x < 2 ? .white : .clear }.converted(
            to: .rgba8Premultiplied)
        let output = try ImageProcessors.Resize(size: Size(width: 1, height: 1), contentMode: .stretch).process(image)
        #expect(output.pixelFormat == .rgba8Premultiplied)
        #expect(output.pixel(x: 0, y: 0) == RGBA8(red: 128, green: 128, blue: 128, alpha: 128))
    }

    @Test func croppedViewWithPaddedRowsResizesLikeACopy() throws {
        let big = TestImages.noise(width: 90, height: 70)
        let view = big.cropped(x: 13, y: 7, width: 60, height: 45)
        #expect(view.bytesPerRow > view.width * 4)
        let copy = Image(width: 60, height: 45, isOpaque: true, bytes: view.packedBytes)
        let resize = ImageProcessors.Resize(size: Size(width: 20, height: 20), crop: true)
        #expect(try resize.process(view) == resize.process(copy))
        let blur = ImageProcessors.GaussianBlur(radius: 3)
        #expect(try blur.process(view) == blur.process(copy))
        #expect(try ImageProcessors.Circle().process(view) == ImageProcessors.Circle().process(copy))
    }

    @Test func areaAverageMatchesAReferenceAverage() throws {
        // 1024×768 → 256×256 fill+crop is a 3×3 average of the centre 768×768.
        let image = TestImages.noise(width: 48, height: 36)
        let output = try ImageProcessors.Resize(size: Size(width: 12, height: 12), crop: true, filter: .areaAverage)
            .process(image)
        for (x, y) in [(0, 0), (5, 7), (11, 11)] {
            var sum = 0
            for dy in 0..<3 { for dx in 0..<3 { sum += Int(image.pixel(x: 6 + 3 * x + dx, y: 3 * y + dy).green) } }
            #expect(abs(Int(output.pixel(x: x, y: y).green) - Int((Double(sum) / 9).rounded())) <= 1)
        }
    }

    @Test func fractionalCentreCropKeepsMirrorSymmetry() throws {
        // 101×50 filled to 20×20: the source region is 50×50 starting at x = 25.5. A mirror-
        // symmetric image must stay mirror-symmetric, which only holds if the region is centred exactly.
        let image = TestImages.make(width: 101, height: 50, opaque: true) { x, y in
            let d = abs(x - 50)
            return RGBA8(red: UInt8(d * 5), green: UInt8((d * d) % 256), blue: UInt8(y * 5))
        }
        let output = try ImageProcessors.Resize(size: Size(width: 20, height: 20), crop: true).process(image)
        #expect(output.width == 20 && output.height == 20)
        for y in 0..<20 {
            for x in 0..<10 {
                #expect(output.pixel(x: x, y: y) == output.pixel(x: 19 - x, y: y), "(\(x), \(y))")
            }
        }
    }

    @Test func shrinkingOneAxisWhileEnlargingTheOther() throws {
        let image = TestImages.redBlue(width: 40, height: 4, split: 20)
        let output = try ImageProcessors.Resize(
            size: Size(width: 10, height: 16), contentMode: .stretch, upscale: true, filter: .areaAverage
        ).process(image)
        #expect(output.width == 10 && output.height == 16)
        #expect(output.pixel(x: 4, y: 15) == RGBA8(red: 255, green: 0, blue: 0))
        #expect(output.pixel(x: 5, y: 0) == RGBA8(red: 0, green: 0, blue: 255))
    }

    @Test(arguments: ImageProcessors.Resize.Filter.allCases)
    func upscalingInterpolatesWithLanczos3(filter: ImageProcessors.Resize.Filter) throws {
        let image = TestImages.make(width: 2, height: 1, opaque: true) { x, _ in x == 0 ? .black : .white }
        let output = try ImageProcessors.Resize(width: 4, upscale: true, filter: filter).process(image)
        let reds = (0..<4).map { Int(output.pixel(x: $0, y: 0).red) }
        // Output centres at -0.25, 0.25, 0.75, 1.25 source pixels; the Lanczos3 taps of the two
        // pixels, normalised to sum to 1, the result clamped to a byte.
        let expected = [-0.25, 0.25, 0.75, 1.25].map { centre in
            var sum = 0.0, total = 0.0
            for j in 0...1 {
                let x = Double(j) - centre
                let w = x == 0 ? 1 : abs(x) < 3 ? 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * .pi * x * x) : 0
                sum += w * (j >= 1 ? 255 : 0)
                total += w
            }
            return min(max(Int((sum / total).rounded()), 0), 255)
        }
        #expect(zip(reds, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(reds) against \(expected)")
        #expect(reds[1] > 0 && reds[1] < 128 && reds[2] > 128 && reds[2] < 255)
    }
}
