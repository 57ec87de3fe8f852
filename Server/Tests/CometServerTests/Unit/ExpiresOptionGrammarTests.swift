@testable import CometServer
import Testing

/// `exp` as imgproxy reads it: any 64-bit Unix time; 0 or below is no end.
@Suite("The exp option")
struct ExpiresOptionGrammarTests {
    private func parse(_ segments: String) throws -> ThumbnailOptions {
        try ThumbnailOptions.parse(segments, maximumDimension: 4096)
    }

    @Test func aFarFutureTimeIsAnEnd() throws {
        // The year 3000, imgproxy's own test of it.
        #expect(try parse("exp:32503669200").expires == 32_503_669_200)
    }

    @Test(arguments: ["exp:0", "exp:-5", "expires:-1609448400"])
    func zeroOrANegativeTimeIsNoEnd(_ segment: String) throws {
        #expect(try parse(segment).expires == nil)
        #expect(try parse(segment).canonical == "")
    }

    @Test(arguments: ["exp:99999999999999999999", "exp:+5", "exp:1e9", "exp:--1"])
    func aTimeThatIsNoWholeNumberIsRefused(_ segment: String) {
        let error = #expect(throws: ServiceError.self) { try parse(segment) }
        #expect(error?.status == 400 && error?.message.hasPrefix("exp") == true)
    }
}
