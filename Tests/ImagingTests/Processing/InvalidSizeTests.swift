import Foundation
import Testing
@testable import Imaging

/// Sizes that are not a number of pixels (NaN, ±infinity, zero, negative, beyond `Int`) never
/// trap: each side becomes at least 1 and at most 2^30 pixels (Nuke's
/// `thatProcessingFailsForInvalidTargetSize` crashed here).
@Suite struct InvalidSizeTests {
    static let lengths: [Double] = [.nan, .infinity, -.infinity, 0, -1, -1e300, 1e300]
    let landscape = Image(width: 20, height: 10, color: .white)

    @Test(arguments: lengths)
    func aCGSizeSideBecomesAWholePixelCountInRange(_ length: Double) {
        let size = Size(CGSize(width: length, height: 8))
        #expect((1...1 << 30).contains(size.width))
        #expect(size.height == 8)
    }

    @Test func nanZeroAndNegativeSidesBecomeOnePixel() {
        for length in [Double.nan, 0, -1, -Double.infinity] {
            #expect(Size(CGSize(width: length, height: length)) == Size(width: 1, height: 1))
        }
    }

    @Test func infiniteAndHugeSidesBecomeTheLongestSide() {
        #expect(Size(CGSize(width: Double.infinity, height: 1e300)) == Size(width: 1 << 30, height: 1 << 30))
    }

    @Test func aPointScaleThatIsNotANumberGivesOnePixel() {
        #expect(Size(CGSize(width: 10, height: 10), unit: .points(scale: .nan)) == Size(width: 1, height: 1))
    }

    @Test(arguments: lengths)
    func aResizeToAnInvalidCGSizeProcessesWithoutTrapping(_ length: Double) throws {
        for mode in [ImageProcessors.Resize.ContentMode.aspectFit, .aspectFill, .stretch] {
            let resize = ImageProcessors.Resize(size: CGSize(width: length, height: length), contentMode: mode)
            let output = try resize.process(landscape)
            #expect(output.width >= 1 && output.height >= 1)
        }
    }

    @Test func aWidthOrHeightBeyondIntInPointsDoesNotTrap() throws {
        let scales: [Double] = [2, .nan, .infinity, -1, 0]
        for scale in scales {
            let byWidth = ImageProcessors.Resize(width: .max, unit: .points(scale: scale))
            let byHeight = ImageProcessors.Resize(height: .min, unit: .points(scale: scale))
            #expect(try byWidth.process(landscape).width >= 1)
            #expect(try byHeight.process(landscape).height >= 1)
        }
    }

    @Test func anIntSizeBeyondIntInPointsDoesNotTrap() throws {
        let resize = ImageProcessors.Resize(size: Size(width: .max, height: .min), unit: .points(scale: 3))
        #expect(try resize.process(landscape).width >= 1)
    }

    @Test func anInfiniteFitWithoutUpscaleLeavesTheImageAsItIs() throws {
        let resize = ImageProcessors.Resize(
            size: CGSize(width: Double.infinity, height: Double.infinity), contentMode: .aspectFit)
        let output = try resize.process(landscape)
        #expect(output.width == 20 && output.height == 10)
    }
}
