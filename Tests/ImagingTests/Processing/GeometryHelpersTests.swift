import Testing
@testable import Imaging

/// Padding, extend, rotate and flip: exact pixel positions, checked against the rule each one
/// states, on images whose pixels say where they came from.
@Suite struct GeometryHelpersTests {
    /// 5×4, red = x, green = y, blue = 200: every pixel unique and opaque.
    let source = TestImages.make(width: 5, height: 4, opaque: true) { x, y in
        RGBA8(red: UInt8(x), green: UInt8(y), blue: 200)
    }
    let background = RGBA8(red: 9, green: 8, blue: 7)

    /// Checks that `output` is `source` at (`dx`, `dy`) on `fill`.
    func expectPlaced(
        _ output: Image, at dx: Int, _ dy: Int, on fill: RGBA8, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for y in 0..<output.height {
            for x in 0..<output.width {
                let (sx, sy) = (x - dx, y - dy)
                let inside = sx >= 0 && sx < source.width && sy >= 0 && sy < source.height
                let expected = inside ? source.pixel(x: sx, y: sy) : fill
                #expect(output.pixel(x: x, y: y) == expected, "(\(x), \(y))", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func paddingAddsEachSideInTheBackground() throws {
        let output = try ImageProcessors.Padding(top: 1, right: 2, bottom: 3, left: 4, background: background).process(
            source)
        #expect((output.width, output.height) == (4 + 5 + 2, 1 + 4 + 3))
        expectPlaced(output, at: 4, 1, on: background)
        #expect(output.isOpaque)
    }

    @Test func transparentPaddingClearsOpacity() throws {
        let output = try ImageProcessors.Padding(2).process(source)
        expectPlaced(output, at: 2, 2, on: .clear)
        #expect(!output.isOpaque)
    }

    @Test func paddingPastTheResultLimitIsRejected() {
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Padding(-1).validate() }
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Padding(Double(ImageProcessors.maximumResultSide + 1)).validate()
        }
        // Each side is allowed, the result is not: 5 + 2 × 6 > 16.
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Padding(6, maximumSide: 16).process(source) }
    }

    @Test func theLimitIsNotPartOfThePaddingsIdentity() {
        #expect(ImageProcessors.Padding(3, maximumSide: 100) == ImageProcessors.Padding(3))
        #expect(ImageProcessors.Padding(3, maximumSide: 100).hashValue == ImageProcessors.Padding(3).hashValue)
    }

    @Test(arguments: [
        (ImageProcessors.Gravity.center, 2, 2), (.compass(.southEast), 4, 4), (.compass(.northWest), 0, 0),
        (.compass(.east, offsetX: 1, offsetY: 0), 3, 2), (.focusPoint(x: 0.25, y: 0.75), 0, 4),
    ])
    func extendPlacesTheImageByGravity(gravity: ImageProcessors.Gravity, x: Int, y: Int) throws {
        // 5×4 on 9×8: 4 pixels to spare each way. The focus point (2.25, 6) pulls the image's
        // centre left (clamped at 0) and down (6 − 2 = 4).
        let output = try ImageProcessors.Extend(width: 9, height: 8, gravity: gravity, background: background)
            .process(source)
        #expect((output.width, output.height) == (9, 8))
        expectPlaced(output, at: x, y, on: background)
    }

    @Test func extendNeverCrops() throws {
        let output = try ImageProcessors.Extend(width: 3, height: 7, gravity: .compass(.south)).process(source)
        #expect((output.width, output.height) == (5, 7))
        expectPlaced(output, at: 0, 3, on: .clear)
        #expect(try ImageProcessors.Extend(width: 2, height: 2).process(source) == source)
    }

    @Test func extendToAnAspectRatioGrowsTheShortSide() throws {
        // 5×4 to 16:9: the width grows to round(4 × 16 / 9) = 7; to 1:2 the height to 10.
        let wide = try ImageProcessors.Extend(aspectRatioWidth: 16, aspectRatioHeight: 9).process(source)
        #expect((wide.width, wide.height) == (7, 4))
        let tall = try ImageProcessors.Extend(aspectRatioWidth: 1, aspectRatioHeight: 2, gravity: .compass(.north))
            .process(source)
        #expect((tall.width, tall.height) == (5, 10))
        expectPlaced(tall, at: 0, 0, on: .clear)
    }

    @Test func extendRefusesSmartGravityAndSizesPastTheLimit() {
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Extend(width: 9, height: 9, gravity: .smart).validate()
        }
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Extend(width: 20, height: 9, maximumSide: 16).validate()
        }
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Extend(aspectRatioWidth: 0, aspectRatioHeight: 1).validate()
        }
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Extend(aspectRatioWidth: 100, aspectRatioHeight: 1, maximumSide: 16).process(source)
        }
    }

    /// The corners of `image`, clockwise from the top left.
    func corners(_ image: Image) -> [RGBA8] {
        let (r, b) = (image.width - 1, image.height - 1)
        return [image.pixel(x: 0, y: 0), image.pixel(x: r, y: 0), image.pixel(x: r, y: b), image.pixel(x: 0, y: b)]
    }

    @Test func aClockwiseQuarterTurnMovesEachCornerToTheNext() throws {
        let output = try ImageProcessors.Rotate(degrees: 90).process(source)
        #expect((output.width, output.height) == (4, 5))
        let before = corners(source), after = corners(output)
        // The top left corner goes to the top right, and so on round.
        #expect(after == [before[3], before[0], before[1], before[2]])
    }

    @Test func aQuarterTurnMovesEveryPixel() throws {
        // Clockwise, source (x, y) lands at (height − 1 − y, x).
        let output = try ImageProcessors.Rotate(degrees: 90).process(source)
        for y in 0..<source.height {
            for x in 0..<source.width {
                #expect(output.pixel(x: source.height - 1 - y, y: x) == source.pixel(x: x, y: y))
            }
        }
    }

    @Test func turnsAddUp() throws {
        let quarter = ImageProcessors.Rotate(degrees: 90)
        let twice = try quarter.process(try quarter.process(source))
        #expect(try ImageProcessors.Rotate(degrees: 180).process(source) == twice)
        #expect(try ImageProcessors.Rotate(degrees: 270).process(try quarter.process(source)) == source)
        #expect(try ImageProcessors.Flip(horizontal: true, vertical: true).process(source) == twice)
    }

    @Test func anglesAreNormalisedAndOnlyQuarterTurnsAccepted() throws {
        #expect(ImageProcessors.Rotate(degrees: -90) == ImageProcessors.Rotate(degrees: 270))
        #expect(ImageProcessors.Rotate(degrees: 450).identifier == "com.comet.rotate?degrees=90")
        #expect(try ImageProcessors.Rotate(degrees: 360).process(source) == source)
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Rotate(degrees: 45).process(source) }
    }

    @Test func flipsMirrorColumnsOrRows() throws {
        let horizontal = try ImageProcessors.Flip(horizontal: true).process(source)
        let vertical = try ImageProcessors.Flip(vertical: true).process(source)
        for y in 0..<source.height {
            for x in 0..<source.width {
                #expect(horizontal.pixel(x: source.width - 1 - x, y: y) == source.pixel(x: x, y: y))
                #expect(vertical.pixel(x: x, y: source.height - 1 - y) == source.pixel(x: x, y: y))
            }
        }
        #expect(try ImageProcessors.Flip().process(source) == source)
    }
}
