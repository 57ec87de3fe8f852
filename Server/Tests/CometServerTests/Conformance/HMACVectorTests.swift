import Testing

/// The conformance suite's own HMAC-SHA256 and base64url (``IndependentHMAC``) against published
/// vectors, so that a signature the servers accept is proved against a known-good oracle.
@Suite("Conformance: the suite's HMAC-SHA256")
struct HMACVectorTests {
    /// FIPS 180-4's example: SHA-256 of "abc", and of the empty message.
    @Test func sha256MatchesTheStandardsExamples() {
        #expect(
            IndependentHMAC.hex(IndependentHMAC.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            IndependentHMAC.hex(IndependentHMAC.sha256([]))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// RFC 4231 test cases 2 (a short key) and 6 (a key longer than a block).
    @Test func hmacMatchesRFC4231() {
        let short = IndependentHMAC.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(IndependentHMAC.hex(short) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let long = IndependentHMAC.mac(
            key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(IndependentHMAC.hex(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// RFC 4648's vectors, in the URL-safe alphabet, with and without padding.
    @Test func base64URLMatchesRFC4648() {
        #expect(IndependentHMAC.base64URL(Array("foob".utf8)) == "Zm9vYg")
        #expect(IndependentHMAC.paddedBase64URL(Array("foob".utf8)) == "Zm9vYg==")
        #expect(IndependentHMAC.paddedBase64URL(Array("fooba".utf8)) == "Zm9vYmE=")
        #expect(IndependentHMAC.base64URL([0xFB, 0xFF]) == "-_8")
    }
}
