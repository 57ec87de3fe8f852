import Testing
@testable import Imaging

/// Rounded corners and circles.
@Suite struct ShapeTests {
    let red = RGBA8(red: 255, green: 0, blue: 0)

    @Test func roundedCornersAreTransparentAndTheCentreOpaque() throws {
        let output = try ImageProcessors.RoundedCorners(radius: 10).process(Image(width: 60, height: 40, color: red))
        #expect(!output.isOpaque)
        for (x, y) in [(0, 0), (59, 0), (0, 39), (59, 39), (1, 1)] {
            #expect(output.pixel(x: x, y: y).alpha == 0, "(\(x), \(y))")
        }
        #expect(output.pixel(x: 30, y: 20) == red)
        #expect(output.pixel(x: 30, y: 0) == red, "straight edges are not touched")
        #expect(output.pixel(x: 0, y: 20) == red)
    }

    @Test func roundedCornerEdgeIsAntialiased() throws {
        let output = try ImageProcessors.RoundedCorners(radius: 20).process(Image(width: 60, height: 60, color: red))
        // Along a row through the corner, alpha rises from 0 through partial values to 255.
        let alphas = (0..<20).map { output.pixel(x: $0, y: 4).alpha }
        #expect(alphas.first == 0 && alphas.last == 255)
        #expect(alphas.contains { $0 > 0 && $0 < 255 })
        #expect(alphas == alphas.sorted())
        // Straight alpha: the colour of partly covered pixels is untouched.
        let partial = try #require(alphas.firstIndex { $0 > 0 && $0 < 255 })
        #expect(output.pixel(x: partial, y: 4) == RGBA8(red: 255, green: 0, blue: 0, alpha: alphas[partial]))
    }

    @Test func circleHasTransparentCornersAndOpaqueCentre() throws {
        let output = try ImageProcessors.Circle().process(Image(width: 80, height: 50, color: red))
        #expect(output.width == 50 && output.height == 50)
        for (x, y) in [(0, 0), (49, 0), (0, 49), (49, 49), (4, 4)] {
            #expect(output.pixel(x: x, y: y).alpha == 0, "(\(x), \(y))")
        }
        #expect(output.pixel(x: 25, y: 25) == red)
        #expect(output.pixel(x: 25, y: 1) == red, "top of the circle")
        #expect(output.pixel(x: 7, y: 7).alpha > 0 && output.pixel(x: 7, y: 7).alpha < 255, "edge at 45°: partial")
        #expect(output.pixel(x: 9, y: 9) == red)
    }

    @Test func circleCoverageMatchesTheCircleArea() throws {
        let output = try ImageProcessors.Circle().process(Image(width: 100, height: 100, color: red))
        let coverage = allPixels(output).reduce(0.0) { $0 + Double($1.alpha) / 255 }
        let area = Double.pi * 50 * 50
        #expect(abs(coverage - area) / area < 0.002)
    }

    @Test func circleIsSymmetric() throws {
        let output = try ImageProcessors.Circle().process(Image(width: 41, height: 41, color: red))
        for y in 0..<41 {
            for x in 0..<41 {
                #expect(output.pixel(x: x, y: y) == output.pixel(x: 40 - x, y: y))
                #expect(output.pixel(x: x, y: y) == output.pixel(x: y, y: x))
            }
        }
    }

    @Test func borderIsDrawnInsideTheEdge() throws {
        let border = ImageProcessors.Border(color: .white, width: 3)
        let output = try ImageProcessors.RoundedCorners(radius: 8, border: border).process(
            Image(width: 40, height: 40, color: red))
        #expect(output.pixel(x: 20, y: 0) == .white)
        #expect(output.pixel(x: 20, y: 2) == .white)
        #expect(output.pixel(x: 20, y: 3) == red)
        #expect(output.pixel(x: 20, y: 20) == red)
        #expect(output.pixel(x: 0, y: 0).alpha == 0)
        let circle = try ImageProcessors.Circle(border: border).process(Image(width: 40, height: 40, color: red))
        #expect(circle.pixel(x: 20, y: 1) == .white)
        #expect(circle.pixel(x: 20, y: 20) == red)
    }

    @Test func premultipliedInputKeepsChannelsWithinAlpha() throws {
        let image = Image(
            width: 30, height: 30, color: RGBA8(red: 200, green: 100, blue: 50), pixelFormat: .rgba8Premultiplied)
        let output = try ImageProcessors.Circle().process(image)
        #expect(output.pixelFormat == .rgba8Premultiplied)
        for p in allPixels(output) { #expect(p.red <= p.alpha && p.green <= p.alpha && p.blue <= p.alpha) }
        #expect(output.pixel(x: 0, y: 0) == .clear)
    }

    @Test func radiusIsCappedAtHalfTheShorterSide() throws {
        let image = Image(width: 30, height: 30, color: red)
        #expect(
            try ImageProcessors.RoundedCorners(radius: 500).process(image) == ImageProcessors.Circle().process(image))
    }
}
