import Foundation
import Testing
@testable import Imaging

/// What a reduced JPEG decode tells the resize after it, and that nothing else carries it.
@Suite struct DecodeReductionTests {
    /// A 101×75 JPEG: at 1/2 its sides are 50.5×37.5 decoded pixels, of which the decoder keeps
    /// the whole blocks' 50×37.
    static let jpeg: Data = {
        let image = Image(width: 101, height: 75, color: RGBA8(red: 90, green: 120, blue: 150, alpha: 255))
        return (try? ImageEncoders.jpeg(image, quality: 0.9)) ?? Data()
    }()

    @Test func aReducedDecodeKnowsTheFileExactSidesAndItsFactor() throws {
        let options = ImageDecodingOptions(downsampling: .covering(width: 40, height: 30))
        let image = try JPEGDecoder().decode(Self.jpeg, options: options).image
        #expect(image.width == 50 && image.height == 37)
        #expect(image.decodeReduction == DecodeReduction(factor: 2, width: 50.5, height: 37.5))
        #expect(image.decodeReduction?.sharpening == 0.75 / 40)
    }

    @Test func aFullSizeDecodeACropAndAResizeCarryNone() throws {
        #expect(try JPEGDecoder().decode(Self.jpeg).image.decodeReduction == nil)
        let options = ImageDecodingOptions(downsampling: .covering(width: 40, height: 30))
        let reduced = try JPEGDecoder().decode(Self.jpeg, options: options).image
        #expect(reduced.cropped(x: 1, y: 1, width: 20, height: 20).decodeReduction == nil)
        let resized = try ImageProcessors.Resize(size: Size(width: 20, height: 20), crop: true).process(reduced)
        #expect(resized.decodeReduction == nil)
    }

    @Test func aFillAfterAReducedDecodeIsFramedOnTheFileExactSides() throws {
        // 50×37 decoded pixels standing for 50.5×37.5: a 30² fill takes the centred 37.5² of
        // them (from x 6.5, y 0), not the 37² of the whole blocks (from x 6.5, y 0, 37 high).
        let resize = ImageProcessors.Resize(size: Size(width: 30, height: 30), crop: true)
        let plan = resize.plan(width: 50, height: 37, extent: (50.5, 37.5))
        #expect(plan?.source == Resampler.SourceRect(x: 6.5, y: 0, width: 37.5, height: 37.5))
        #expect(resize.plan(width: 50, height: 37)?.source == Resampler.SourceRect(x: 6.5, y: 0, width: 37, height: 37))
    }
}
