import CometServer
import Testing

@Suite("Accept negotiation")
struct FormatChoiceTests {
    @Test func prefersAVIFThenWebP() {
        #expect(FormatChoice.negotiate(accept: "image/avif,image/webp,*/*", allowsAVIF: true) == .exactly(.avif))
        #expect(FormatChoice.negotiate(accept: "image/avif,image/webp,*/*", allowsAVIF: false) == .exactly(.webp))
        #expect(FormatChoice.negotiate(accept: "image/webp", allowsAVIF: true) == .exactly(.webp))
    }

    @Test func wildcardsAndMissingHeadersGetJPEGOrPNG() {
        #expect(FormatChoice.negotiate(accept: "*/*", allowsAVIF: true) == .source)
        #expect(FormatChoice.negotiate(accept: "image/*", allowsAVIF: true) == .source)
        #expect(FormatChoice.negotiate(accept: nil, allowsAVIF: true) == .source)
    }

    @Test func aZeroQualityRefusesAFormat() {
        #expect(FormatChoice.negotiate(accept: "image/avif;q=0, image/webp;q=0.8", allowsAVIF: true) == .exactly(.webp))
    }
}
