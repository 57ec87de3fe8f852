import CometServer
import Foundation
import Testing

@Suite("HMAC-SHA256 URL signatures")
struct URLSignerTests {
    let signer = try! URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f")
    let path = "/rs:fill:300:300/aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlLmpwZw"

    /// The expected value was computed with Python's hmac module:
    /// base64url(HMAC-SHA256(key "secret", "hello" + path)), unpadded.
    @Test func matchesAnIndependentHMAC() {
        #expect(signer.signature(for: path) == "equtn61YcG64Zx96L3E8kY4atk_IwEjV5DavAZhQHqE")
    }

    /// RFC 4231, test case 6: a key longer than a block is hashed first. No salt, so the
    /// signature is the plain HMAC of the data.
    @Test func hashesAKeyLongerThanABlockFirst() throws {
        let signer = try URLSigner(key: [UInt8](repeating: 0xAA, count: 131), salt: [])
        let expected = try #require(
            URLSigner.bytes(hex: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"))
        #expect(
            signer.signature(for: "Test Using Larger Than Block-Size Key - Hash Key First")
                == Base64URL.encode(expected))
    }

    @Test func acceptsItsOwnSignature() {
        #expect(signer.isValid(signer.signature(for: path), for: path))
    }

    @Test func refusesASignatureForOtherOptions() {
        #expect(
            !signer.isValid(signer.signature(for: path), for: "/rs:fill:301:300/aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlLmpwZw")
        )
    }

    @Test func refusesAnotherKeysSignature() throws {
        let other = try URLSigner(hexKey: "736563726575", hexSalt: "68656c6c6f")
        #expect(!signer.isValid(other.signature(for: path), for: path))
    }

    /// imgproxy decodes signatures as unpadded base64url: the same digest with `=` padding is
    /// another spelling, refused (security/signature_test.go's padded case).
    @Test func refusesAPaddedSpellingOfItsOwnSignature() {
        let signature = signer.signature(for: path)
        #expect(!signer.isValid(signature + "=", for: path))
    }

    @Test func refusesGarbage() {
        #expect(!signer.isValid("unsigned", for: path))
        #expect(!signer.isValid("", for: path))
    }

    @Test func refusesKeysThatAreNotHex() {
        #expect(throws: ServiceError.self) { try URLSigner(hexKey: "xyz", hexSalt: "") }
        #expect(throws: ServiceError.self) { try URLSigner(hexKey: "", hexSalt: "00") }
    }

    /// Serving.md's signing example, as written there (DocsCodeBlocksTests finds it here).
    @Test func theReadmeSigningExampleMakesAPathTheServerAccepts() throws {
        let key = "736563726574", salt = "68656c6c6f"
        let signer = try URLSigner(hexKey: key, hexSalt: salt)
        let path = ThumbnailPath.make(
            options: "rs:fill:256:256", source: URL(string: "https://images.example.com/cat.jpg")!,
            fileExtension: "webp", signer: signer)  // "/{signature}/rs:fill:256:256/{base64url}.webp"
        let signature = try #require(path.split(separator: "/").first.map(String.init))
        let signed = String(path.dropFirst(signature.count + 1))
        #expect(signed == "/rs:fill:256:256/aHR0cHM6Ly9pbWFnZXMuZXhhbXBsZS5jb20vY2F0LmpwZw.webp")
        #expect(signer.isValid(signature, for: signed))
    }
}
