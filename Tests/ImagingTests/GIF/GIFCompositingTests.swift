import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// Frames are composited as browsers do, checked on GIFs written for each case.
@Suite("GIF compositing")
struct GIFCompositingTests {
    static let red = (UInt8(255), UInt8(0), UInt8(0)), green = (UInt8(0), UInt8(255), UInt8(0)),
        blue = (UInt8(0), UInt8(0), UInt8(255))
    static let opaqueRed = RGBA8(red: 255, green: 0, blue: 0, alpha: 255)
    static let opaqueGreen = RGBA8(red: 0, green: 255, blue: 0, alpha: 255)
    static let opaqueBlue = RGBA8(red: 0, green: 0, blue: 255, alpha: 255)
    static let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

    /// A 4×4 red background frame, then a 2×2 green frame at (1, 1) with `disposal`, then a 1×1
    /// blue frame at (0, 0).
    static func threeFrames(secondDisposal: UInt8) -> Data {
        var gif = GIFWriter(width: 4, height: 4, globalPalette: [red, green, blue])
        gif.frames = [
            .init(width: 4, height: 4, indices: Array(repeating: 0, count: 16)),
            .init(left: 1, top: 1, width: 2, height: 2, indices: [1, 1, 1, 1], disposal: secondDisposal),
            .init(width: 1, height: 1, indices: [2]),
        ]
        return gif.data
    }

    static func frames(_ data: Data) throws -> [Image] {
        try #require(GIFDecoder().decode(data, options: ImageDecodingOptions(decodesAnimation: true)).animation).frames
            .map(\.image)
    }

    @Test func disposalNoneLeavesTheFrameForTheNextOne() throws {
        let frames = try Self.frames(Self.threeFrames(secondDisposal: 1))
        #expect(frames[2].pixel(x: 1, y: 1) == Self.opaqueGreen)
        #expect(frames[2].pixel(x: 0, y: 0) == Self.opaqueBlue)
    }

    @Test func restoreToBackgroundClearsTheFramesRectangleToTransparent() throws {
        let frames = try Self.frames(Self.threeFrames(secondDisposal: 2))
        #expect(frames[1].pixel(x: 2, y: 2) == Self.opaqueGreen)
        #expect(frames[2].pixel(x: 1, y: 1) == Self.clear && frames[2].pixel(x: 2, y: 2) == Self.clear)
        #expect(frames[2].pixel(x: 3, y: 3) == Self.opaqueRed)
    }

    @Test func restoreToPreviousBringsBackTheCanvasBeforeTheFrame() throws {
        let frames = try Self.frames(Self.threeFrames(secondDisposal: 3))
        #expect(frames[1].pixel(x: 1, y: 1) == Self.opaqueGreen)
        #expect(frames[2].pixel(x: 1, y: 1) == Self.opaqueRed)
        #expect(frames[2].pixel(x: 0, y: 0) == Self.opaqueBlue)
    }

    @Test func transparentIndexShowsWhatIsUnderneath() throws {
        var gif = GIFWriter(width: 2, height: 1, globalPalette: [Self.red, Self.green])
        gif.frames = [
            .init(width: 2, height: 1, indices: [0, 0]),
            .init(width: 2, height: 1, indices: [1, 0], transparentIndex: 0),
        ]
        let frames = try Self.frames(gif.data)
        #expect(frames[1].pixel(x: 0, y: 0) == Self.opaqueGreen && frames[1].pixel(x: 1, y: 0) == Self.opaqueRed)
    }

    @Test func theCanvasOutsideTheFirstFrameIsTransparent() throws {
        var gif = GIFWriter(width: 3, height: 3, globalPalette: [Self.red])
        gif.frames = [.init(left: 1, top: 1, width: 1, height: 1, indices: [0])]
        let image = try GIFDecoder().decode(gif.data).image
        #expect(image.pixel(x: 0, y: 0) == Self.clear && image.pixel(x: 1, y: 1) == Self.opaqueRed)
    }

    @Test func localPalettesApplyToTheirFrameOnly() throws {
        var gif = GIFWriter(width: 1, height: 2, globalPalette: [Self.red])
        gif.frames = [
            .init(width: 1, height: 1, indices: [0], localPalette: [Self.blue]),
            .init(top: 1, width: 1, height: 1, indices: [0]),
        ]
        let frames = try Self.frames(gif.data)
        #expect(frames[1].pixel(x: 0, y: 0) == Self.opaqueBlue && frames[1].pixel(x: 0, y: 1) == Self.opaqueRed)
    }

    @Test func interlacedRowsLandWhereTheyBelong() throws {
        let indices = (0..<(3 * 11)).map { UInt8($0 / 3 % 3) }  // row r has colour r % 3
        var plain = GIFWriter(width: 3, height: 11, globalPalette: [Self.red, Self.green, Self.blue])
        plain.frames = [.init(width: 3, height: 11, indices: indices)]
        var interlaced = plain
        interlaced.frames[0].interlaced = true
        let image = try GIFDecoder().decode(interlaced.data).image
        #expect(image == (try GIFDecoder().decode(plain.data).image))
        #expect(image.pixel(x: 1, y: 4) == Self.opaqueGreen)
    }

    @Test func framesOutsideTheCanvasAreClipped() throws {
        var gif = GIFWriter(width: 2, height: 2, globalPalette: [Self.red, Self.green])
        gif.frames = [.init(left: 1, top: 1, width: 3, height: 3, indices: Array(repeating: 1, count: 9))]
        let image = try GIFDecoder().decode(gif.data).image
        #expect(
            image.width == 2 && image.pixel(x: 1, y: 1) == Self.opaqueGreen && image.pixel(x: 0, y: 0) == Self.clear)
    }

    @Test func animationDurationUsesBrowserMinimumForZeroDelays() throws {
        var gif = GIFWriter(width: 1, height: 1, globalPalette: [Self.red])
        gif.frames = [
            .init(width: 1, height: 1, indices: [0], delay: 0), .init(width: 1, height: 1, indices: [0], delay: 50),
        ]
        let animation = try #require(
            GIFDecoder().decode(gif.data, options: ImageDecodingOptions(decodesAnimation: true)).animation)
        #expect(animation.frames.map(\.duration) == [0, 0.5])
        #expect(animation.duration == 0.6)
    }
}
