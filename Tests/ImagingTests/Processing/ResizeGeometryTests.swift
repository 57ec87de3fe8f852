import Foundation
import Testing
@testable import Imaging

/// Output sizes of `Resize` and `Canvas` (Nuke's and AlamofireImage's geometry).
@Suite struct ResizeGeometryTests {
    let landscape = Image(width: 200, height: 100, color: .white)

    func size(_ processor: some ImageProcessing, _ image: Image) throws -> Size {
        let output = try processor.process(image)
        return Size(width: output.width, height: output.height)
    }

    @Test func aspectFitUsesTheSmallerScale() throws {
        #expect(
            try size(.resize(size: Size(width: 100, height: 100), contentMode: .aspectFit), landscape)
                == Size(width: 100, height: 50))
    }

    @Test func aspectFillUsesTheLargerScale() throws {
        #expect(
            try size(.resize(size: Size(width: 100, height: 100), contentMode: .aspectFill), landscape)
                == Size(width: 200, height: 100))
        #expect(
            try size(.resize(size: Size(width: 50, height: 50), contentMode: .aspectFill), landscape)
                == Size(width: 100, height: 50))
    }

    @Test func aspectFillWithCropIsExactlyTheTargetSize() throws {
        #expect(
            try size(.resize(size: Size(width: 50, height: 50), crop: true), landscape) == Size(width: 50, height: 50))
        let photo = Image(width: 1024, height: 768, color: .black)
        #expect(
            try size(.resize(size: Size(width: 256, height: 256), crop: true), photo) == Size(width: 256, height: 256))
        #expect(
            try size(.resize(size: Size(width: 300, height: 100), crop: true), photo) == Size(width: 300, height: 100))
    }

    @Test func aFillThatKeepsASmallSourceCutsOnlyWhatIsOverTheTarget() throws {
        func filled(_ width: Int, _ height: Int, _ smallSource: ImageProcessors.Resize.SmallSource) throws -> Size {
            try size(
                ImageProcessors.Resize(
                    size: Size(width: width, height: height), crop: true, smallSource: smallSource), landscape)
        }
        #expect(try filled(300, 300, .keepsSource) == Size(width: 200, height: 100))
        #expect(try filled(100, 300, .keepsSource) == Size(width: 100, height: 100))
        #expect(try filled(300, 50, .keepsSource) == Size(width: 200, height: 50))
        #expect(try filled(50, 50, .keepsSource) == Size(width: 50, height: 50))
        #expect(try filled(300, 300, .keepsTargetShape) == Size(width: 100, height: 100))
    }

    @Test func noUpscalingByDefault() throws {
        let resized = try ImageProcessors.Resize(size: Size(width: 400, height: 400), contentMode: .aspectFit).process(
            landscape)
        #expect(resized.width == 200 && resized.height == 100)
        #expect(try size(.resize(width: 400), landscape) == Size(width: 200, height: 100))
    }

    @Test func upscalingWhenAllowed() throws {
        #expect(
            try size(.resize(size: Size(width: 400, height: 400), contentMode: .aspectFit, upscale: true), landscape)
                == Size(width: 400, height: 200))
        #expect(
            try size(.resize(size: Size(width: 400, height: 400), contentMode: .aspectFill, upscale: true), landscape)
                == Size(width: 800, height: 400))
        #expect(
            try size(.resize(size: Size(width: 400, height: 400), crop: true, upscale: true), landscape)
                == Size(width: 400, height: 400))
    }

    @Test func cropWithoutUpscaleKeepsTheTargetFramingAtSourceResolution() throws {
        // Filling 256×256 shows the central 100×100 of a 200×100 image; without upscaling that is the output.
        #expect(
            try size(.resize(size: Size(width: 256, height: 256), crop: true), landscape)
                == Size(width: 100, height: 100))
    }

    @Test func widthAndHeightOnlyKeepTheAspectRatio() throws {
        #expect(try size(.resize(width: 50), landscape) == Size(width: 50, height: 25))
        #expect(try size(.resize(height: 20), landscape) == Size(width: 40, height: 20))
        #expect(try size(.resize(width: 3), Image(width: 10, height: 7, color: .white)) == Size(width: 3, height: 2))
    }

    @Test func stretchIgnoresTheAspectRatio() throws {
        #expect(
            try size(.resize(size: Size(width: 50, height: 80), contentMode: .stretch), landscape)
                == Size(width: 50, height: 80))
    }

    @Test func outputSidesRoundToNearestAndNeverReachZero() throws {
        let thin = Image(width: 1000, height: 3, color: .white)
        #expect(try size(.resize(width: 10), thin) == Size(width: 10, height: 1))
        // 333 × 0.5 = 166.5 → 167 (rounded half away from zero).
        #expect(
            try size(.resize(width: 50), Image(width: 100, height: 333, color: .white)) == Size(width: 50, height: 167))
    }

    @Test func cgSizeIsReadAsPixelsOrPointsTimesScale() throws {
        #expect(
            try size(.resize(size: CGSize(width: 100, height: 100), contentMode: .aspectFit), landscape)
                == Size(width: 100, height: 50))
        let points = ImageProcessors.Resize(
            size: CGSize(width: 50, height: 50), unit: .points(scale: 2), contentMode: .aspectFit)
        #expect(try size(points, landscape) == Size(width: 100, height: 50))
    }

    @Test func noResizeNeededReturnsTheSameImage() throws {
        let same = try ImageProcessors.Resize(size: Size(width: 200, height: 100)).process(landscape)
        #expect(same.width == 200 && same.cost == landscape.cost)
    }

    @Test func alamofireAspectFitCentresOnATransparentCanvas() throws {
        // AlamofireImage's AspectScaledToFitSizeFilter(size: 100×100) on a 200×100 image:
        // a 100×50 image centred on a 100×100 transparent canvas.
        let fit = ImageProcessors.Composition([
            .resize(size: Size(width: 100, height: 100), contentMode: .aspectFit, upscale: true),
            .canvas(size: Size(width: 100, height: 100)),
        ])
        let output = try fit.process(landscape)
        #expect(output.width == 100 && output.height == 100 && !output.isOpaque)
        #expect(output.pixel(x: 50, y: 24).alpha == 0)
        #expect(output.pixel(x: 50, y: 25) == .white)
        #expect(output.pixel(x: 50, y: 74) == .white)
        #expect(output.pixel(x: 50, y: 75).alpha == 0)
    }

    @Test func alamofireAspectFillIsCentredAndClipped() throws {
        // AspectScaledToFillSizeFilter(size: 100×100) on 200×100 red|blue: the centre square, unscaled.
        let image = TestImages.redBlue(width: 200, height: 100, split: 100)
        let output = try ImageProcessors.Resize(size: Size(width: 100, height: 100), crop: true, upscale: true).process(
            image)
        #expect(output.width == 100 && output.height == 100)
        #expect(output.pixel(x: 49, y: 50) == RGBA8(red: 255, green: 0, blue: 0))
        #expect(output.pixel(x: 50, y: 50) == RGBA8(red: 0, green: 0, blue: 255))
    }

    @Test func alamofireCircleIsTheCentredSquareOfTheShorterSide() throws {
        #expect(try size(.circle(), landscape) == Size(width: 100, height: 100))
        #expect(try size(.circle(), Image(width: 30, height: 90, color: .white)) == Size(width: 30, height: 30))
    }

    @Test func canvasCropsWhenSmallerThanTheImage() throws {
        let image = TestImages.redBlue(width: 10, height: 4, split: 5)
        let output = try ImageProcessors.Canvas(size: Size(width: 4, height: 4)).process(image)
        #expect(output.isOpaque)
        // Columns 3…6 of the image: red up to column 4, blue from column 5.
        #expect(output.pixel(x: 1, y: 0) == RGBA8(red: 255, green: 0, blue: 0))
        #expect(output.pixel(x: 2, y: 0) == RGBA8(red: 0, green: 0, blue: 255))
    }

    @Test func cropCutsTheClippedRectangle() throws {
        let image = TestImages.make(width: 8, height: 8) { x, y in RGBA8(red: UInt8(x), green: UInt8(y), blue: 0) }
        let output = try ImageProcessors.Crop(x: 6, y: 2, width: 5, height: 3).process(image)
        #expect(output.width == 2 && output.height == 3)
        #expect(output.pixel(x: 0, y: 0) == RGBA8(red: 6, green: 2, blue: 0))
        #expect(output.bytesPerRow == 8)
    }

    @Test func cropOutsideTheImageThrowsAClearError() {
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Crop(x: 300, y: 0, width: 5, height: 5).process(landscape)
        }
        do {
            _ = try ImageProcessors.Crop(x: 300, y: 0, width: 5, height: 5).process(landscape)
        } catch {
            #expect("\(error)".contains("does not overlap the 200×100 image"))
        }
    }
}
