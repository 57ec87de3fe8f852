@testable import CometServer
import Testing

@Suite("Digests")
struct DigestTests {
    /// SHA-256("abc") from FIPS 180-2, appendix B.1.
    @Test func isLowercaseHexSHA256() {
        #expect(ThumbnailResponder.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
