import Testing
@testable import Comet

extension Caching {
    @Suite("SHA256")
    struct SHA256Tests {
        @Test(arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
        func matchesTheFIPSVectors(message: String, digest: String) {
            #expect(SHA256.hexDigest(message.utf8) == digest)
        }

        @Test func messagesAroundTheBlockBoundaryHashDifferently() {
            // 55, 56 and 64 bytes exercise the one- and two-block padding paths.
            let digests = [55, 56, 63, 64, 65].map { SHA256.hexDigest([UInt8](repeating: 0x61, count: $0)) }
            #expect(Set(digests).count == 5)
            #expect(
                SHA256.hexDigest([UInt8](repeating: 0x61, count: 56))
                    == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        }

        @Test func defaultFilenameIsTheHexDigestOfTheKey() {
            #expect(
                DataCache.sha256Filename("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        }
    }
}
