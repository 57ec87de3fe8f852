import Testing
@testable import Imaging

/// The processors' fast alpha conversions agree byte for byte with `Image.converted(to:)`.
@Suite struct AlphaConversionTests {
    /// Every (colour, alpha) pair once: 256 × 256 pixels, colour c in red, 255 − c in green.
    let everyPair = TestImages.make(width: 256, height: 256) { c, a in
        RGBA8(red: UInt8(c), green: UInt8(255 - c), blue: UInt8((c * 7) & 255), alpha: UInt8(a))
    }

    @Test func premultiplyMatchesConvertedForEveryColourAndAlpha() {
        #expect(AlphaConversion.premultiplied(everyPair) == everyPair.converted(to: .rgba8Premultiplied))
    }

    @Test func unpremultiplyMatchesConvertedForEveryColourAndAlpha() {
        // Premultiplied inputs with any colour ≤ alpha (and a few > alpha, which must clamp).
        let premultiplied = TestImages.make(width: 256, height: 256, format: .rgba8Premultiplied) { c, a in
            RGBA8(red: UInt8(min(c, a)), green: UInt8(c), blue: UInt8(a / 2), alpha: UInt8(a))
        }
        #expect(AlphaConversion.unpremultiplied(premultiplied) == premultiplied.converted(to: .rgba8))
    }

    @Test func conversionsHonourPaddedRows() {
        let view = everyPair.cropped(x: 3, y: 5, width: 100, height: 90)
        #expect(AlphaConversion.premultiplied(view) == view.converted(to: .rgba8Premultiplied))
    }
}
