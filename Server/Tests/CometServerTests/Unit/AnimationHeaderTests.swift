import CometServer
import Foundation
import Testing

/// The container walk that counts frames before any is decoded, on files written from the
/// GIF89a and WebP specifications (``CraftedAnimation``): whole, cut short, and hostile.
@Suite("Animation headers")
struct AnimationHeaderTests {
    @Test func countsAGIFsFramesAndReadsItsScreen() throws {
        let header = try #require(AnimationHeader(Data(CraftedAnimation.gif(width: 300, height: 200, frames: 7))))
        #expect(header == AnimationHeader(format: "gif", width: 300, height: 200, frameCount: 7))
        #expect(header.isAnimated)
        #expect(header.totalPixels == 7 * 300 * 200)
    }

    @Test func aGIFCutShortCountsTheFramesWhoseDescriptorsAreThere() throws {
        let bytes = CraftedAnimation.gif(width: 10, height: 10, frames: 5, truncated: true)
        #expect(AnimationHeader(Data(bytes))?.frameCount == 5)
        // Cut inside the last descriptor: that frame is not declared.
        let inside = Array(bytes.prefix(bytes.count - 8))
        #expect(AnimationHeader(Data(inside))?.frameCount == 4)
    }

    @Test func aSubBlockLengthPastTheEndStopsTheWalk() throws {
        var bytes = CraftedAnimation.gif(width: 4, height: 4, frames: 2)
        bytes.removeLast()  // the trailer
        bytes += [0x21, 0xFE, 0xFF, 0x41]  // a comment whose sub-block claims 255 bytes, of which 1 is here
        #expect(AnimationHeader(Data(bytes))?.frameCount == 2)
        #expect(AnimationHeader(Data(Array(bytes.prefix(12)))) == nil, "a screen descriptor cut short")
    }

    @Test func countsAWebPsAnimationFramesOverTruncatedData() throws {
        let bytes = CraftedAnimation.webp(width: 2000, height: 1500, frames: 9)
        let header = try #require(AnimationHeader(Data(bytes)))
        #expect(header == AnimationHeader(format: "webp", width: 2000, height: 1500, frameCount: 9))
        #expect(header.totalPixels == 9 * 2000 * 1500)
    }

    @Test func aStillWebPIsNoAnimation() throws {
        // VP8X without the animation flag: one frame, the canvas read.
        var bytes = CraftedAnimation.webp(width: 64, height: 32, frames: 1)
        bytes[20] = 0
        #expect(AnimationHeader(Data(bytes)) == AnimationHeader(format: "webp", width: 64, height: 32, frameCount: 1))
        let simple =
            Array("RIFF".utf8) + CraftedAnimation.le32(20) + Array("WEBPVP8L".utf8) + [UInt8](repeating: 0, count: 16)
        #expect(AnimationHeader(Data(simple)) == nil)
        #expect(AnimationHeader(Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40))) == nil)
    }

    @Test func hugeDeclaredSizesSaturateTheirProduct() {
        let header = AnimationHeader(format: "webp", width: 1 << 24, height: 1 << 24, frameCount: Int.max / 2)
        #expect(header.totalPixels == .max)
    }
}
