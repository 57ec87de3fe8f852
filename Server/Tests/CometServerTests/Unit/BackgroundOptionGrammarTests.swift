import Comet
@testable import CometServer
import Testing

/// `bg` as imgproxy reads it: hex, three decimal channels, or empty to reset.
@Suite("The bg option")
struct BackgroundOptionGrammarTests {
    private func parse(_ segments: String) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segments, maximumDimension: 4096)
    }

    @Test func threeDecimalChannelsAreAColour() throws {
        #expect(try parse("background:128:129:130").background == RGBA8(red: 128, green: 129, blue: 130))
    }

    @Test(arguments: ["bg:255:0:0", "bg:f00", "bg:FF0000", "background:ff0000"])
    func everySpellingOfAColourIsSpelledAsHex(_ segment: String) throws {
        #expect(try parse(segment).canonical == "bg:ff0000")
    }

    @Test func anEmptyArgumentResetsTheBackground() throws {
        #expect(try parse("bg:fff/bg:").background == nil)
    }

    @Test(arguments: ["bg:256:0:0", "bg:-1:0:0", "bg:1:2", "bg:a:b:c", "bg:1:2:3:4", "bg:1.5:0:0", "bg:ffff"])
    func aBadColourIsRefusedNamingBg(_ segment: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.status == 400 && error?.message.hasPrefix("bg") == true, "\(error?.message ?? "")")
    }
}
