import Testing
@testable import Imaging

/// Watermarks: placement by compass point or tiles, and "over" compositing checked against the
/// straight-alpha formula worked out here in doubles.
@Suite struct WatermarkTests {
    /// An opaque 40×30 base with varied colour.
    let base = TestImages.make(width: 40, height: 30, opaque: true) { x, y in
        RGBA8(red: UInt8(x * 6), green: UInt8(y * 8), blue: 90)
    }
    /// A 6×4 overlay: translucent orange, its alpha varying by column.
    let overlay = TestImages.make(width: 6, height: 4) { x, _ in
        RGBA8(red: 250, green: 120, blue: 10, alpha: UInt8(60 + x * 35))
    }

    /// "Over" in straight alpha: `αo + αb(1 − αo)`, colour weighted by each layer's coverage.
    func over(_ top: RGBA8, _ bottom: RGBA8, opacity: Double) -> RGBA8 {
        let ao = Double(top.alpha) / 255 * opacity, ab = Double(bottom.alpha) / 255
        let a = ao + ab * (1 - ao)
        func mix(_ o: UInt8, _ b: UInt8) -> UInt8 {
            a == 0 ? 0 : UInt8(((Double(o) * ao + Double(b) * ab * (1 - ao)) / a).rounded())
        }
        return RGBA8(
            red: mix(top.red, bottom.red), green: mix(top.green, bottom.green), blue: mix(top.blue, bottom.blue),
            alpha: UInt8((a * 255).rounded()))
    }

    /// Checks `output` against `base` with `overlay` over it at each of `origins`.
    func expectComposited(
        _ output: Image, at origins: [(Int, Int)], opacity: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for y in 0..<base.height {
            for x in 0..<base.width {
                var expected = base.pixel(x: x, y: y)
                for (ox, oy) in origins
                where (ox..<ox + overlay.width).contains(x) && (oy..<oy + overlay.height).contains(y) {
                    expected = over(overlay.pixel(x: x - ox, y: y - oy), expected, opacity: opacity)
                }
                let p = output.pixel(x: x, y: y)
                let difference = [
                    Int(p.red) - Int(expected.red), Int(p.green) - Int(expected.green),
                    Int(p.blue) - Int(expected.blue),
                    Int(p.alpha) - Int(expected.alpha),
                ].map(abs).max()!
                #expect(difference <= 2, "(\(x), \(y)): \(p) vs \(expected)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aCompassPointPlacesTheOverlayAgainstItsEdgeWithOffsetsInward() throws {
        let output = try ImageProcessors.Watermark(
            overlay: overlay, overlayID: "orange", position: .compass(.southEast), offsetX: 3, offsetY: 2
        ).process(base)
        // 40 − 6 − 3 = 31, 30 − 4 − 2 = 24.
        expectComposited(output, at: [(31, 24)], opacity: 1)
        #expect(output.isOpaque)
    }

    @Test func opacityScalesTheOverlaysAlpha() throws {
        let output = try ImageProcessors.Watermark(overlay: overlay, overlayID: "orange", opacity: 0.4).process(base)
        expectComposited(output, at: [(17, 13)], opacity: 0.4)
    }

    @Test func tilesCoverTheImageFromTheTopLeftWithGaps() throws {
        let output = try ImageProcessors.Watermark(
            overlay: overlay, overlayID: "orange", position: .tiled, offsetX: 4, offsetY: 1
        ).process(base)
        let origins = stride(from: 0, to: 30, by: 5).flatMap { y in stride(from: 0, to: 40, by: 10).map { x in (x, y) }
        }
        expectComposited(output, at: origins, opacity: 1)
    }

    @Test func scaleFitsTheOverlayToAFractionOfTheImage() throws {
        // A 6×4 opaque overlay scaled to fit 0.5 × 40×30 = 20×15: 20×13 (aspect kept), centred.
        let opaque = Image(width: 6, height: 4, color: RGBA8(red: 0, green: 255, blue: 0))
        let output = try ImageProcessors.Watermark(overlay: opaque, overlayID: "green", scale: 0.5).process(base)
        let covered = (0..<30).flatMap { y in (0..<40).map { x in (x, y) } }.filter { x, y in
            output.pixel(x: x, y: y) == RGBA8(red: 0, green: 255, blue: 0)
        }
        #expect(covered.count == 20 * 13)
        #expect(covered.first! == (10, 8))
    }

    @Test func straightTranslucentBasesStayStraight() throws {
        let translucent = Image(width: 10, height: 10, color: RGBA8(red: 0, green: 0, blue: 200, alpha: 100))
        let output = try ImageProcessors.Watermark(
            overlay: overlay, overlayID: "orange", position: .compass(.northWest)
        )
        .process(translucent)
        #expect(output.pixelFormat == .rgba8)
        let expected = over(overlay.pixel(x: 2, y: 1), translucent.pixel(x: 2, y: 1), opacity: 1)
        let p = output.pixel(x: 2, y: 1)
        #expect(
            abs(Int(p.red) - Int(expected.red)) <= 3 && abs(Int(p.alpha) - Int(expected.alpha)) <= 1,
            "\(p) vs \(expected)")
    }

    @Test func valuesOutsideTheLimitsAreRejected() {
        for mark in [
            ImageProcessors.Watermark(overlay: overlay, overlayID: "o", opacity: 1.5),
            ImageProcessors.Watermark(overlay: overlay, overlayID: "o", scale: 2),
            ImageProcessors.Watermark(overlay: overlay, overlayID: "o", position: .tiled, offsetX: -1),
            ImageProcessors.Watermark(overlay: overlay, overlayID: "o", offsetY: 1e9),
        ] {
            #expect(throws: ImageProcessingError.self, "\(mark.identifier)") { try mark.validate() }
        }
    }

    @Test func theIdentifierNamesTheOverlayAndEveryParameter() {
        let mark = ImageProcessors.Watermark(
            overlay: overlay, overlayID: "logo-v2", opacity: 0.5, position: .tiled, offsetX: 10, offsetY: 10,
            scale: 0.25)
        #expect(
            mark.identifier
                == "com.comet.watermark?overlay=logo-v2&opacity=0.5&position=re&offsetX=10&offsetY=10&scale=0.25")
    }
}
