import Testing
@testable import Imaging

/// Gravity: where ``ImageProcessors/Crop`` and a cropping ``ImageProcessors/Resize`` cut, as
/// imgproxy's `gravity` option describes it. Expected corners are worked out by hand from the
/// rule (offsets inward from the named edge, regions kept inside the image).
@Suite struct GravityTests {
    /// 40×30, red = x and green = y, so a pixel says where it came from.
    let coordinates = TestImages.make(width: 40, height: 30, opaque: true) { x, y in
        RGBA8(red: UInt8(x), green: UInt8(y), blue: 0)
    }

    /// The source position of a crop's top left pixel.
    func corner(_ crop: ImageProcessors.Crop) throws -> (Int, Int) {
        let output = try crop.process(coordinates)
        #expect(output.width == crop.width && output.height == crop.height)
        let p = output.pixel(x: 0, y: 0)
        return (Int(p.red), Int(p.green))
    }

    @Test(arguments: [
        (ImageProcessors.Gravity.Compass.center, 15, 12), (.north, 15, 0), (.south, 15, 24), (.east, 30, 12),
        (.west, 0, 12), (.northEast, 30, 0), (.northWest, 0, 0), (.southEast, 30, 24), (.southWest, 0, 24),
    ])
    func compassPointsPlaceTheRegionAgainstTheirEdge(point: ImageProcessors.Gravity.Compass, x: Int, y: Int) throws {
        // A 10×6 region of 40×30: 30 and 24 pixels to spare.
        #expect(try corner(.crop(width: 10, height: 6, gravity: .compass(point))) == (x, y))
    }

    @Test func offsetsMoveInwardFromTheNamedEdges() throws {
        #expect(
            try corner(.crop(width: 10, height: 6, gravity: .compass(.southEast, offsetX: 4, offsetY: 3))) == (26, 21))
        #expect(
            try corner(.crop(width: 10, height: 6, gravity: .compass(.northWest, offsetX: 4, offsetY: 3))) == (4, 3))
    }

    @Test func offsetsMoveRightAndDownAlongACentredAxis() throws {
        #expect(
            try corner(.crop(width: 10, height: 6, gravity: .compass(.center, offsetX: 5, offsetY: -2))) == (20, 10))
        #expect(try corner(.crop(width: 10, height: 6, gravity: .compass(.north, offsetX: -5, offsetY: 0))) == (10, 0))
    }

    @Test func offsetsStopAtTheImagesEdges() throws {
        #expect(
            try corner(.crop(width: 10, height: 6, gravity: .compass(.west, offsetX: 100, offsetY: -100))) == (30, 0))
    }

    @Test func aFocusPointCentresTheRegionOnIt() throws {
        // The point (10, 15): the 10×6 region's centre lands there.
        #expect(try corner(.crop(width: 10, height: 6, gravity: .focusPoint(x: 0.25, y: 0.5))) == (5, 12))
    }

    @Test func aFocusPointNearAnEdgeKeepsTheRegionInside() throws {
        #expect(try corner(.crop(width: 10, height: 6, gravity: .focusPoint(x: 0, y: 1))) == (0, 24))
        #expect(try corner(.crop(width: 10, height: 6, gravity: .focusPoint(x: 1, y: 0))) == (30, 0))
    }

    @Test func aGravityCropLargerThanTheImageKeepsTheWholeSide() throws {
        let output = try ImageProcessors.Crop(width: 100, height: 6, gravity: .compass(.south)).process(coordinates)
        #expect((output.width, output.height) == (40, 6))
        #expect(output.pixel(x: 0, y: 0) == RGBA8(red: 0, green: 24, blue: 0))
    }

    @Test func aFocusPointOutsideTheUnitSquareIsRejected() {
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Crop(width: 4, height: 4, gravity: .focusPoint(x: 1.5, y: 0)).process(coordinates)
        }
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Resize(
                size: Size(width: 4, height: 4), crop: true, gravity: .focusPoint(x: 0, y: -0.1)
            ).process(coordinates)
        }
    }

    @Test func fillWithoutScalingCopiesTheRegionGravityPicks() throws {
        // 40×30 filled to 20×30: scale 1, 20 columns to spare.
        let east = try ImageProcessors.Resize(
            size: Size(width: 20, height: 30), crop: true, gravity: .compass(.east)
        ).process(coordinates)
        #expect((east.width, east.height) == (20, 30))
        #expect(east.pixel(x: 0, y: 0) == RGBA8(red: 20, green: 0, blue: 0))
        let offset = try ImageProcessors.Resize(
            size: Size(width: 20, height: 30), crop: true, gravity: .compass(.west, offsetX: 3, offsetY: 0)
        ).process(coordinates)
        #expect(offset.pixel(x: 0, y: 0) == RGBA8(red: 3, green: 0, blue: 0))
    }

    /// 240×120 with red = x: a horizontal ramp, which Lanczos3 reproduces away from the edges.
    let ramp = TestImages.make(width: 240, height: 120, opaque: true) { x, _ in RGBA8(red: UInt8(x), green: 0, blue: 0)
    }

    /// The source column output column 30 of a 60×60 fill of ``ramp`` shows (scale ½: each output
    /// pixel covers two source columns, so column 30 is centred on `regionX + 61`).
    func middleColumn(_ gravity: ImageProcessors.Gravity) throws -> Double {
        let output = try ImageProcessors.Resize(size: Size(width: 60, height: 60), crop: true, gravity: gravity)
            .process(ramp)
        #expect((output.width, output.height) == (60, 60))
        return Double(output.pixel(x: 30, y: 30).red)
    }

    @Test func scaledFillTakesItsRegionFromGravity() throws {
        // The region is 120×120 source pixels: x = 0 (west), 60 (centre), 120 (east).
        #expect(abs(try middleColumn(.compass(.west)) - 60.5) <= 1)
        #expect(abs(try middleColumn(.center) - 120.5) <= 1)
        #expect(abs(try middleColumn(.compass(.east)) - 180.5) <= 1)
    }

    @Test func scaledFillOffsetsAreOutputPixels() throws {
        // 10 output pixels at scale ½ are 20 source columns: the region starts at 100.
        #expect(abs(try middleColumn(.compass(.east, offsetX: 10, offsetY: 0)) - 160.5) <= 1)
    }

    @Test func scaledFillCentresTheRegionOnAFocusPoint() throws {
        // The point at x = 0.5 × 240 = 120 centres a 120-wide region: it starts at 60, as centred.
        #expect(abs(try middleColumn(.focusPoint(x: 0.5, y: 0.5)) - 120.5) <= 1)
        #expect(abs(try middleColumn(.focusPoint(x: 0.375, y: 0.5)) - 90.5) <= 1)
    }

    /// 200×100 flat grey with a saturated, edged red block at columns 140…159, rows 40…59.
    let offCentreBlock = TestImages.make(width: 200, height: 100, opaque: true) { x, y in
        (140..<160).contains(x) && (40..<60).contains(y)
            ? RGBA8(red: 220, green: 20, blue: 30) : RGBA8(red: 128, green: 128, blue: 128)
    }

    @Test func smartGravityCropsAroundTheDetailedColourfulPart() throws {
        let crop = ImageProcessors.Crop(width: 100, height: 100, gravity: .smart)
        let (left, _, right, _) = crop.bounds(in: offCentreBlock)
        #expect(left <= 140 && right >= 160, "\(left)…\(right)")
        #expect(ImageProcessors.Crop(width: 100, height: 100, gravity: .center).bounds(in: offCentreBlock).2 < 160)
    }

    @Test func smartGravityFillKeepsTheDetailedColourfulPart() throws {
        // A 50×50 fill: the 100×100 region holding the block, at scale ½ (a 10×10 red block).
        let output = try ImageProcessors.Resize(size: Size(width: 50, height: 50), crop: true, gravity: .smart)
            .process(offCentreBlock)
        let red = allPixels(output).filter { $0.red > 200 && $0.green < 40 }
        #expect(red.count >= 64, "\(red.count) red pixels")
    }

    @Test func smartGravityOnAFlatImageCentres() throws {
        let flat = Image(width: 200, height: 100, color: RGBA8(red: 90, green: 90, blue: 90))
        #expect(ImageProcessors.Crop(width: 100, height: 100, gravity: .smart).bounds(in: flat).0 == 50)
    }

    @Test func gravityOnlyCountsWhenAResizeCrops() {
        let fit = ImageProcessors.Resize(
            size: Size(width: 9, height: 9), contentMode: .aspectFit, gravity: .compass(.east))
        #expect(fit == ImageProcessors.Resize(size: Size(width: 9, height: 9), contentMode: .aspectFit))
        #expect(fit.gravity == .center)
    }

    @Test func identifiersNameTheGravityInImgproxysSpelling() {
        #expect(
            ImageProcessors.Resize(
                size: Size(width: 8, height: 8), crop: true, gravity: .compass(.southEast, offsetX: 10)
            )
            .identifier
                == "com.comet.resize?width=8&height=8&contentMode=aspectFill&crop=true&upscale=false&filter=lanczos3"
                + "&gravity=soea:10:0")
        #expect(
            ImageProcessors.Crop(width: 5, height: 6, gravity: .focusPoint(x: 0.25, y: 1)).identifier
                == "com.comet.crop?width=5&height=6&gravity=fp:0.25:1")
        #expect(ImageProcessors.Crop(width: 5, height: 6, gravity: .center).identifier.hasSuffix("&gravity=ce"))
        #expect(ImageProcessors.Gravity.smart.description == "sm")
    }

    @Test func pointOffsetsAreConvertedToPixels() {
        let points = ImageProcessors.Resize(
            size: Size(width: 8, height: 8), unit: .points(scale: 2), crop: true,
            gravity: .compass(.east, offsetX: 3, offsetY: 1))
        #expect(points.gravity == .compass(.east, offsetX: 6, offsetY: 2))
    }
}
