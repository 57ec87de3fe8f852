import Comet
import CometServer
import Foundation
import Testing

/// Animated sources through the real server, from the corpus's GIFs (and one of them as an
/// animated WebP): the frames, their sizes and their timing kept in WebP and GIF results, the
/// first frame in still formats, and the limits refused from the container's header before any
/// frame is decoded. Every expectation is read back with Comet's decoders from the bytes served.
@Suite("Animations through the server", .timeLimit(.minutes(10)), .enabled(if: AnimationOrigin.isAvailable))
struct AnimationTests {
    let client = HTTPClient()

    /// The result of `options` for `path` on the animation origin, with `headers`.
    private func get(_ options: String, _ path: String, headers: [String: String] = [:]) async throws
        -> HTTPClient.Answer
    {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        return try await client.get(server.url(options, origin.url(path)), headers: headers)
    }

    /// `bytes` decoded with every frame.
    private func frames(_ bytes: [UInt8]) throws -> AnimatedImage {
        let decoded = try ImageDecoders.decode(Data(bytes), options: ImageDecodingOptions(decodesAnimation: true))
        return try #require(decoded.animation, "an animation")
    }

    /// The corpus's `moon_impact.gif`, every frame decoded: 116×100, 14 frames of 0.15 s.
    private static let moon: AnimatedImage = {
        let bytes = AnimationOrigin.gif("moon_impact.gif") ?? []
        return (try? ImageDecoders.decode(Data(bytes), options: .init(decodesAnimation: true)).animation)
            ?? AnimatedImage(
                type: .gif, frames: [.init(image: Image(width: 1, height: 1, color: .clear), duration: 0)],
                loopCount: 0, data: Data())
    }()

    /// The frame durations a lossless animated WebP of `animation` holds: libwebp's encoder
    /// folds a frame identical to the one before it into that one, adding its duration.
    private static func folded(_ animation: AnimatedImage) -> [Double] {
        var durations: [Double] = []
        for (index, frame) in animation.frames.enumerated() {
            if index > 0, frame.image == animation.frames[index - 1].image {
                durations[durations.count - 1] += frame.duration
            } else {
                durations.append(frame.duration)
            }
        }
        return durations
    }

    /// Whether `animation`'s durations are `expected`, to the millisecond WebP stores.
    private static func hasDurations(_ animation: AnimatedImage, _ expected: [Double]) -> Bool {
        animation.frames.count == expected.count
            && zip(animation.frames, expected).allSatisfy { abs($0.duration - $1) < 0.0005 }
    }

    @Test func anAnimatedGIFStaysAnimatedInWebP() async throws {
        let answer = try await get("rs:fit:58:50/q:100/f:webp", "/gif/moon_impact.gif")
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(answer.header("Content-Type") == "image/webp")
        let result = try frames(answer.body)
        #expect(Self.moon.frames.count == 14)
        let expected = Self.folded(Self.moon)
        #expect(expected.count > 1 && expected.count < 14, "the sample repeats some frames")
        #expect(Self.hasDurations(result, expected), "\(result.frames.map(\.duration)) against \(expected)")
        #expect(result.frames.allSatisfy { $0.image.width == 58 && $0.image.height == 50 })
        #expect(result.loopCount == Self.moon.loopCount)
    }

    @Test func anAnimatedGIFStaysAnimatedInGIFFrameForFrame() async throws {
        let answer = try await get("rs:fit:58:50/f:gif", "/gif/moon_impact.gif")
        #expect(answer.header("Content-Type") == "image/gif")
        let result = try frames(answer.body)
        #expect(result.frames.count == 14)
        #expect(result.frames.map(\.duration) == Self.moon.frames.map(\.duration))
        #expect(result.frames.allSatisfy { $0.image.width == 58 && $0.image.height == 50 })
        #expect(result.loopCount == Self.moon.loopCount)
    }

    @Test func anAnimatedWebPStaysAnimatedInGIFWithItsTiming() async throws {
        let (_, server) = try await SharedOriginAndServer.get()
        let origin = try await AnimationOrigin.get()
        let gif = try await client.get(server.url("rs:fill:40:30", origin.url("/moon.webp"), fileExtension: "gif"))
        #expect(gif.status == 200)
        #expect(gif.header("Content-Type") == "image/gif")
        let result = try frames(gif.body)
        let source = try frames(try #require(AnimationOrigin.moonWebP))
        #expect(result.type == .gif)
        #expect(result.frames.count == source.frames.count)
        #expect(result.frames.allSatisfy { $0.image.width == 40 && $0.image.height == 30 })
        // GIF counts hundredths: the WebP's milliseconds are multiples of 10 here.
        #expect(Self.hasDurations(result, source.frames.map(\.duration)))
        // anim-gr.gif: 2 frames of 1 and 10 000 hundredths, both kept exactly.
        let short = try frames(try await get("f:gif", "/gif/anim-gr.gif").body)
        #expect(short.frames.map(\.duration) == [0.01, 100])
        #expect(short.frames.allSatisfy { $0.image.width == 100 && $0.image.height == 50 })
    }

    @Test func everyFrameGetsTheStillsGeometryAndEffects() async throws {
        let options = "rs:fill:48:48/grayscale:1/pd:2/q:100"
        let animated = try frames(try await get(options + "/f:webp", "/gif/moon_impact.gif").body)
        let still = try ImageDecoders.decode(Data(try await get(options + "/f:png", "/gif/moon_impact.gif").body)).image
        #expect(animated.frames.count == Self.folded(Self.moon).count)
        for (index, frame) in animated.frames.enumerated() {
            let image = frame.image
            #expect(image.width == 52 && image.height == 52, "frame \(index)")
            let grey = (0..<image.height).allSatisfy { y in
                (0..<image.width).allSatisfy { x in
                    let p = image.pixel(x: x, y: y)
                    return p.alpha == 0 || (p.red == p.green && p.green == p.blue)
                }
            }
            #expect(grey, "frame \(index) is grey")
            #expect(image.pixel(x: 0, y: 0).alpha == 0 && image.pixel(x: 51, y: 51).alpha == 0, "padding")
        }
        // Lossless: the first frame is the still result, pixel for pixel.
        let first = animated.frames[0].image
        let same = (0..<52).allSatisfy { y in
            (0..<52).allSatisfy { x in
                let a = first.pixel(x: x, y: y), b = still.pixel(x: x, y: y)
                return a.alpha == b.alpha && (a.alpha == 0 || a == b)
            }
        }
        #expect(same)
    }

    @Test func trimAndSmartGravityGiveEveryFrameOneGeometry() async throws {
        let answer = try await get("t:10/rs:fill:30:60/g:sm/f:webp", "/gif/moon_impact.gif")
        #expect(answer.status == 200)
        let result = try frames(answer.body)
        #expect(result.frames.count > 1)
        #expect(result.frames.allSatisfy { $0.image.width == 30 && $0.image.height == 60 })
    }

    @Test func aStillFormatTakesTheFirstFrame() async throws {
        let png = try await get("f:png", "/gif/moon_impact.gif")
        #expect(png.header("Content-Type") == "image/png")
        let image = try ImageDecoders.decode(Data(png.body)).image
        let first = Self.moon.frames[0].image
        #expect(image.width == first.width && image.height == first.height)
        let same = (0..<first.height).allSatisfy { y in
            (0..<first.width).allSatisfy { x in image.pixel(x: x, y: y) == first.pixel(x: x, y: y) }
        }
        #expect(same)
        // Without a format and without WebP in Accept: the source's format, GIF, still animated.
        let negotiated = try await get("rs:fit:58:50", "/gif/moon_impact.gif")
        #expect(negotiated.header("Content-Type") == "image/gif")
        #expect(try frames(negotiated.body).frames.count > 1)
        // Accepting WebP: an animated WebP, as f:webp makes (imgproxy's answer too).
        let webp = try await get("rs:fit:58:50", "/gif/moon_impact.gif", headers: ["Accept": "image/webp,*/*"])
        #expect(webp.header("Content-Type") == "image/webp")
        #expect(webp.header("Vary") == "Accept")
        #expect(try frames(webp.body).frames.count > 1)
    }

    @Test func animatedAndStillResultsAreStoredApart() async throws {
        let animated = try await get("rs:fit:58:50/f:webp", "/copy/keys/anim-gr.gif")
        let still = try await get("rs:fit:58:50/f:webp/scp:0", "/copy/keys/anim-gr.gif")
        #expect(animated.status == 200 && still.status == 200)
        #expect(try frames(animated.body).frames.count == 2)
        #expect(try ImageDecoders.decode(Data(still.body), options: .init(decodesAnimation: true)).animation == nil)
        #expect(animated.header("ETag") != still.header("ETag"))
    }

    @Test func tooManyFramesIs422BeforeAnyFrameIsDecoded() async throws {
        let refused = try await get("f:webp", "/crafted/many-frames.gif")
        #expect(refused.status == 422)
        #expect(refused.errorCode == "too_large")
        let message = String(decoding: refused.body, as: UTF8.self)
        #expect(message.contains("300 frames") && message.contains("256"), "\(message)")
        // A still result reads the first frame only: no limit on frames.
        let still = try await get("f:png", "/crafted/many-frames.gif")
        #expect(still.status == 200)
    }

    /// The crafted files declare 9 frames of 2000×2000 (36 megapixels together) over a few dozen
    /// bytes with no decodable frame at all: a decode of any frame fails (422, as the still
    /// result shows), so the 422 of the animated result was decided from the header alone.
    @Test(arguments: ["huge-canvas.gif", "huge-canvas.webp"])
    func tooManyFramePixelsIs422FromTheHeaderAlone(_ name: String) async throws {
        let refused = try await get("rs:fit:100:100/f:webp", "/crafted/\(name)")
        #expect(refused.status == 422)
        #expect(refused.errorCode == "too_large")
        let message = String(decoding: refused.body, as: UTF8.self)
        #expect(message.contains("9 frames of 2000×2000"), "\(message)")
        let gif = try await get("rs:fit:100:100/f:gif", "/crafted/\(name)")
        #expect(gif.status == 422)
        let still = try await get("rs:fit:100:100/f:png", "/crafted/\(name)")
        #expect(still.status == 422, "\(String(decoding: still.body, as: UTF8.self))")
        #expect(still.errorCode == "undecodable")
    }
}
