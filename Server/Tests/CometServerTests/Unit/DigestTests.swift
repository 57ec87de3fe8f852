@testable import CometServer
import Testing

@Suite("Digests")
struct DigestTests {
    /// SHA-256("abc") from FIPS 180-2, appendix B.1.
    @Test func isLowercaseHexSHA256() {
        #expect(SHA256State.hexDigest(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// SHA-256 of the two-block message of FIPS 180-2, appendix B.2, fed in uneven pieces.
    @Test func hashesAMessageGivenInPiecesAsOne() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var state = SHA256State()
        for piece in [message[..<3], message[3..<40], message[40...]] { state.update(Array(piece)) }
        #expect(state.finalize(hex) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// A copy of a state continues on its own: the original is unchanged by the copy's updates.
    @Test func aCopiedStateForksTheComputation() {
        var original = SHA256State()
        original.update("ab")
        var fork = original
        fork.update("zz")
        original.update("c")
        #expect(original.finalize(hex) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(fork.finalize(hex) != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// SHA-256 of no bytes (FIPS 180-2's empty-message value).
    @Test func hashesNothing() {
        #expect(SHA256State().finalize(hex) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    private func hex(_ digest: UnsafeRawBufferPointer) -> String {
        digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }
}
