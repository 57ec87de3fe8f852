import CometServer
import Foundation
import Testing

/// Which requests keep an animated source's frames, and their keys, without HTTP.
@Suite("Animation requests")
struct AnimationRequestTests {
    private let source = URL(string: "https://images.example.com/cat.gif")!

    private func request(_ options: String, maximumFrames: Int = 256, accept: String? = nil) throws
        -> ThumbnailRequest
    {
        let path = ThumbnailPath.make(options: options, source: source, signer: nil)
        var configuration = ServerConfiguration()
        configuration.maximumAnimationFrames = maximumFrames
        return try ThumbnailRequest(path: path, accept: accept, configuration: configuration)
    }

    @Test func webPAndGIFKeepAnimationsOtherFormatsDoNot() throws {
        #expect(try request("f:webp").keepsAnimation)
        #expect(try request("f:gif").keepsAnimation)
        #expect(try request("", accept: "image/webp").keepsAnimation)
        // No format asked for or negotiated: the source's, GIF for an animation.
        #expect(try request("").keepsAnimation)
        for options in ["f:png", "f:jpeg", "f:avif", "f:webp/scp:0", "scp:0"] {
            #expect(try !request(options).keepsAnimation, "\(options)")
            #expect(try request(options).framePlan == nil, "\(options)")
        }
        #expect(try !request("f:webp", maximumFrames: 1).keepsAnimation)
    }

    @Test func anAnimatedResultIsKeyedApartFromAStillOne() throws {
        #expect(try request("f:webp").storeKey != request("f:webp", maximumFrames: 1).storeKey)
        #expect(try request("f:png").storeKey == request("f:png", maximumFrames: 1).storeKey)
    }

    @Test func theFramePlanLeavesOutWhatLooksAtThePixels() throws {
        let plan = try #require(try request("t:10/rs:fill:40:40/g:sm/f:webp").framePlan)
        let identifiers = plan.processors.map(\.identifier).joined(separator: " ")
        #expect(!identifiers.lowercased().contains("trim"), "\(identifiers)")
        #expect(!identifiers.contains("gravity="), "\(identifiers)")
        #expect(plan.processors.count == 1)
    }

    @Test func gifIsAFormatAndAnExtension() throws {
        #expect(OutputFormat(name: "GIF") == .gif)
        #expect(OutputFormat.gif.contentType == "image/gif")
        #expect(try request("f:gif").choice == .exactly(.gif))
        #expect(throws: ServiceError.self) { try request("fq:gif:50") }
    }
}
