import CometTestSupport
import Foundation
import Testing
@testable import Imaging

/// image-gif's samples: frame counts, delays and loop counts as the files declare them (read with
/// a Python walk of the blocks), and first frames equal to an independent LZW decode (a Python
/// decoder; its md5 of the RGBA canvas).
@Suite("GIF corpus (image-gif samples)", .requiresCorpus("gif"))
struct GIFCorpusTests {
    static func file(_ name: String) throws -> Data { try TestCorpus.data("gif/image-gif-samples/\(name)") }
    static let animation = ImageDecodingOptions(decodesAnimation: true)

    @Test(arguments: [
        ("2x2.gif", "174d6dc78444a101b89bc0b0c9d4e10d"), ("sample_1.gif", "577fa9792c9d0cd644250a0497ba851e"),
        ("interlaced.gif", "899e87ad64e1823278c58120ba05aac2"), ("alpha_gif_a.gif", "20a77d0b31e5cbb5e2223a12a98dc7a6"),
        ("moon_impact.gif", "e84f2a89dfe84b29fe3a925c2acf8766"), ("beacon.gif", "d46935baa23f04209e6aad51a2bbeccb"),
        ("set_hsts.gif", "f1d3ff8443297732862df21dc4e57262"), ("anim-gr.gif", "edc832cd6311de7894eddbc0924cc417"),
    ])
    func firstFrameEqualsAnIndependentDecode(_ name: String, _ md5: String) throws {
        let decoded = try ImageDecoders.decode(Self.file(name))
        #expect(decoded.type == .gif)
        #expect(try md5Hex(Data(decoded.image.packedBytes)) == md5, "\(name)")
        #expect(decoded.isClean && decoded.animation == nil)
    }

    @Test(arguments: [
        ("gifplayer-muybridge.gif", 380), ("sample_big.gif", 259), ("moon_impact.gif", 14), ("anim-gr.gif", 2),
        ("beacon.gif", 2), ("beacon_icc.gif", 2), ("beacon_xmp.gif", 2),
    ])
    func animationHasEveryFrame(_ name: String, _ count: Int) throws {
        let decoded = try GIFDecoder().decode(Self.file(name), options: Self.animation)
        let animation = try #require(decoded.animation)
        #expect(animation.frames.count == count)
        #expect(
            animation.frames.allSatisfy {
                $0.image.width == decoded.sourceWidth && $0.image.height == decoded.sourceHeight
            })
        #expect(animation.frames[0].image == decoded.image)
        #expect(decoded.isClean)
    }

    @Test func delaysAreTheFilesHundredthsInSeconds() throws {
        let muybridge = try #require(
            GIFDecoder().decode(Self.file("gifplayer-muybridge.gif"), options: Self.animation).animation)
        #expect(muybridge.frames.prefix(3).map(\.duration) == [0.36, 0.04, 0.04])
        let moon = try #require(GIFDecoder().decode(Self.file("moon_impact.gif"), options: Self.animation).animation)
        #expect(moon.frames.allSatisfy { $0.duration == 0.15 })
        let anim = try #require(GIFDecoder().decode(Self.file("anim-gr.gif"), options: Self.animation).animation)
        #expect(anim.frames.map(\.duration) == [0.01, 100])
    }

    @Test func loopCountsFollowTheNetscapeExtension() throws {
        // NETSCAPE2.0 0: forever; 10: ten repetitions after the first play; none: once.
        #expect(try GIFDecoder().decode(Self.file("beacon.gif"), options: Self.animation).animation?.loopCount == 0)
        #expect(
            try GIFDecoder().decode(Self.file("moon_impact.gif"), options: Self.animation).animation?.loopCount == 11)
        #expect(try GIFDecoder().decode(Self.file("sample_big.gif"), options: Self.animation).animation?.loopCount == 1)
    }

    @Test func aStillGIFHasNoAnimationEvenWhenAsked() throws {
        #expect(try GIFDecoder().decode(Self.file("2x2.gif"), options: Self.animation).animation == nil)
    }

    @Test func truncatedAnimationKeepsTheCompleteFramesWithAWarning() throws {
        let data = try Self.file("moon_impact.gif")
        let decoded = try GIFDecoder().decode(data.prefix(data.count * 2 / 3), options: Self.animation)
        let frames = try #require(decoded.animation).frames.count
        #expect(frames > 1 && frames < 14)
        #expect(!decoded.isClean)
    }

    @Test(arguments: [6, 13, 40, 300, 800])
    func aFileCutBeforeItsFirstFrameEndsIsAnError(_ length: Int) throws {
        let data = try Self.file("interlaced.gif")
        #expect(throws: ImageDecodingError.self) { _ = try GIFDecoder().decode(data.prefix(length)) }
    }

    @Test func flippedBytesNeverCrash() throws {
        let files = try ["moon_impact.gif", "beacon.gif", "interlaced.gif"].map(Self.file)
        decodeWithFlippedBytes(files, count: 150, seed: 1818) {
            _ = try GIFDecoder().decode($0, options: Self.animation)
        }
    }
}
