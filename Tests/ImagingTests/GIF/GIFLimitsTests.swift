import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// Limits are checked on the screen descriptor and a walk of the blocks, before decoding.
@Suite("GIF limits")
struct GIFLimitsTests {
    @Test func aCanvasOf65535SquaredIsTooLargeAtOnce() throws {
        var gif = GIFWriter(width: 65535, height: 65535, globalPalette: [(1, 2, 3)])
        gif.frames = [.init(width: 1, height: 1, indices: [0])]
        let start = ContinuousClock.now
        #expect {
            _ = try ImageDecoders.decode(gif.data)
        } throws: { error in
            guard case .tooLarge(65535, 65535, _) = error as? ImageDecodingError else { return false }
            return true
        }
        // The refusal comes from the screen descriptor, before any pixel: decoding the canvas would
        // fill 16 GiB. Generous, so a loaded machine cannot fail it; the error is the real check.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func tenThousandFramesAreTooLargeWhenTheAnimationIsAsked() throws {
        var gif = GIFWriter(width: 1, height: 1, globalPalette: [(1, 2, 3)])
        gif.frames = Array(repeating: .init(width: 1, height: 1, indices: [0]), count: 10_000)
        #expect {
            _ = try GIFDecoder().decode(gif.data, options: ImageDecodingOptions(decodesAnimation: true))
        } throws: { error in
            guard case .tooLarge(_, _, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("frame count")
        }
        // The first frame alone is fine.
        #expect(
            try GIFDecoder().decode(gif.data).image.pixel(x: 0, y: 0) == RGBA8(red: 1, green: 2, blue: 3, alpha: 255))
    }

    @Test func framesTimesPixelsAreBounded() throws {
        var gif = GIFWriter(width: 100, height: 100, globalPalette: [(1, 2, 3)])
        gif.frames = Array(repeating: .init(width: 1, height: 1, indices: [0]), count: 20)
        var options = ImageDecodingOptions(decodesAnimation: true)
        options.limits.maxAnimationPixelCount = 100 * 100 * 19
        #expect {
            _ = try GIFDecoder().decode(gif.data, options: options)
        } throws: { error in
            guard case .tooLarge(100, 100, let limit) = error as? ImageDecodingError else { return false }
            return limit.contains("animation pixel count")
        }
    }

    /// Frames larger than a small canvas cost decoding work the canvas limits do not see: their
    /// rectangles together are held to the animation pixel limit (a fuzzer input spent 399 s
    /// decoding 256 such frames before this limit).
    @Test func framesMuchLargerThanTheCanvasAreBoundedTogether() throws {
        var gif = GIFWriter(width: 1, height: 1, globalPalette: [(1, 2, 3)])
        gif.frames = Array(
            repeating: .init(width: 100, height: 100, indices: Array(repeating: 0, count: 10_000)), count: 10)
        var options = ImageDecodingOptions(decodesAnimation: true)
        options.limits.maxAnimationPixelCount = 95_000
        #expect {
            _ = try GIFDecoder().decode(gif.data, options: options)
        } throws: { error in
            guard case .tooLarge = error as? ImageDecodingError else { return false }
            return true
        }
        options.limits.maxAnimationPixelCount = 100_000
        #expect(try GIFDecoder().decode(gif.data, options: options).animation?.frames.count == 10)
    }

    /// The fuzzer's input (Fixtures/fuzz, found by the `gif` target: 399 s under ASan before the
    /// frames' rectangles were bounded together), decoded with the fuzz harness's limits.
    @Test func theFuzzersSlowInputNowEndsQuickly() throws {
        let data = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/fuzz/gif-frames-larger-than-canvas.gif"))
        let limits = ImageDecodingLimits(
            maxDimension: 8192, maxSourcePixelCount: 16 << 20, maxPixelCount: 8 << 20,
            maxFrameCount: 256, maxAnimationPixelCount: 16 << 20)
        let start = ContinuousClock.now
        _ = try? GIFDecoder().decode(data, options: ImageDecodingOptions(limits: limits, decodesAnimation: true))
        // Before the frames were bounded together this input took 399 s under ASan. The bound is
        // a generous guard against that regression, not a speed check.
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test func aFrameDeclaringMorePixelsThanTheLimitIsRefused() throws {
        var gif = GIFWriter(width: 1, height: 1, globalPalette: [(1, 2, 3)])
        gif.frames = [.init(width: 2000, height: 2000, indices: [])]
        var options = ImageDecodingOptions()
        options.limits.maxSourcePixelCount = 1_000_000
        #expect(throws: ImageDecodingError.self) { _ = try GIFDecoder().decode(gif.data, options: options) }
    }
}
