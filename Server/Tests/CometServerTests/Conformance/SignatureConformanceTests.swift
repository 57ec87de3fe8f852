import Foundation
import Testing

/// imgproxy's "Signing a URL": base64url (no padding) of HMAC-SHA256(key, salt ‖ path), the path
/// from the `/` after the signature; computed here by ``IndependentHMAC``, not by the server's
/// signer, and sent to real servers.
@Suite("Conformance: signatures", .timeLimit(.minutes(10)))
struct SignatureConformanceTests {
    private func path(_ options: String = "rs:fill:4:4") async throws -> String {
        ImgproxyPath.plain(options, try await ConformanceOrigin.get().source("/gen/16x16.png"), ext: "png")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSignatureValidationFailure case
    /// ValidSignature.
    @Test func aValidSignatureIsServed() async throws {
        let answer = try await ConformanceServers.signed().get(try await path())
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.size == .init(width: 4, height: 4))
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestSignatureValidationFailure cases
    /// NoSignature and BadSignature.
    @Test(arguments: ["unsafe", "insecure", "bad-signature", "_"])
    func aWrongSignatureIs403(_ signature: String) async throws {
        let server = try await ConformanceServers.signed()
        let answer = try await ConformanceAnswer.get(server.url(try await path(), signature: signature))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: security/signature_test.go, TestVerifySignatureInvalid (the signature of another
    /// path).
    @Test func theSignatureOfOtherOptionsIs403() async throws {
        let server = try await ConformanceServers.signed()
        let other = server.sign(try await path("rs:fill:5:5"), with: server.pairs[0])
        let answer = try await ConformanceAnswer.get(server.url(try await path(), signature: other))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: the "Signing a URL" guide (the salt is hashed before the path).
    @Test func aSignatureWithoutTheSaltIs403() async throws {
        let server = try await ConformanceServers.signed()
        let path = try await path()
        let unsalted = IndependentHMAC.signature(key: ConformanceServers.pair.key, salt: [], path: path)
        let answer = try await ConformanceAnswer.get(server.url(path, signature: unsalted))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: security/signature.go (the signature is decoded as unpadded base64url: a padded
    /// one is refused), as TestVerifySignatureInvalid.
    @Test func aPaddedSignatureIs403() async throws {
        let server = try await ConformanceServers.signed()
        let path = try await path()
        let answer = try await ConformanceAnswer.get(
            server.url(path, signature: server.sign(path, with: server.pairs[0]) + "="))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: security/signature_test.go, TestVerifySignatureTruncated.
    @Test func aTruncatedSignatureIsServedWhenTheSignatureSizeSaysSo() async throws {
        let server = try await ConformanceServers.truncated()
        let path = try await path()
        let signature = server.sign(path, with: server.pairs[0])
        #expect(signature.utf8.count == 11)
        let answer = try await ConformanceAnswer.get(server.url(path, signature: signature))
        #expect(answer.status == 200, "\(answer.text)")
    }

    /// imgproxy: security/signature_test.go, TestVerifySignatureInvalid (a truncated signature
    /// where the whole digest is expected).
    @Test func aTruncatedSignatureIs403WhereTheWholeDigestIsExpected() async throws {
        let server = try await ConformanceServers.signed()
        let path = try await path()
        let truncated = IndependentHMAC.signature(
            key: ConformanceServers.pair.key, salt: ConformanceServers.pair.salt, path: path, size: 8)
        let answer = try await ConformanceAnswer.get(server.url(path, signature: truncated))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: security/signature_test.go, TestVerifySignatureTruncated (a whole digest where a
    /// truncated one is expected is not it).
    @Test func aWholeSignatureIs403WhereATruncatedOneIsExpected() async throws {
        let server = try await ConformanceServers.truncated()
        let path = try await path()
        let whole = IndependentHMAC.signature(
            key: ConformanceServers.pair.key, salt: ConformanceServers.pair.salt, path: path)
        let answer = try await ConformanceAnswer.get(server.url(path, signature: whole))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: security/signature_test.go, TestVerifySignatureMultiplePairs.
    @Test(arguments: [0, 1])
    func anyConfiguredKeyAndSaltPairSigns(_ index: Int) async throws {
        let server = try await ConformanceServers.rotating()
        let path = try await path()
        let answer = try await ConformanceAnswer.get(
            server.url(path, signature: server.sign(path, with: server.pairs[index])))
        #expect(answer.status == 200, "\(answer.text)")
    }

    /// imgproxy: security/signature_test.go, TestVerifySignatureMultiplePairs (a key paired with
    /// another pair's salt signs nothing).
    @Test func aKeyWithAnotherPairsSaltIs403() async throws {
        let server = try await ConformanceServers.rotating()
        let path = try await path()
        let crossed = ConformanceServer.KeyPair(
            key: ConformanceServers.pair.key, salt: ConformanceServers.secondPair.salt)
        let answer = try await ConformanceAnswer.get(server.url(path, signature: server.sign(path, with: crossed)))
        #expect(answer.status == 403, "\(answer.text)")
    }

    /// imgproxy: the "Signing a URL" guide's `IMGPROXY_KEY`, `IMGPROXY_SALT` (several, comma
    /// separated) and `IMGPROXY_SIGNATURE_SIZE`, read by the `comet-server` command as imgproxy
    /// reads them.
    @Test func imgproxysSigningVariablesConfigureTheCommand() async throws {
        let origin = try await ConformanceOrigin.get()
        let process = try await ServerProcess.start(
            ["--private-host", "127.0.0.1", "--log-level", "warning"],
            environment: [
                "COMET_KEY": "", "COMET_SALT": "", "IMGPROXY_KEY": "6f6c642d6b6579,6e65772d6b6579",
                "IMGPROXY_SALT": "6f6c642d73616c74,6e65772d73616c74", "IMGPROXY_SIGNATURE_SIZE": "16",
            ])
        defer { process.terminate() }
        let server = ConformanceServer(
            base: process.base,
            pairs: [
                .init(key: Array("old-key".utf8), salt: Array("old-salt".utf8)),
                .init(key: Array("new-key".utf8), salt: Array("new-salt".utf8)),
            ], signatureSize: 16)
        let path = ImgproxyPath.plain("rs:fill:4:4", origin.source("/gen/16x16.png"), ext: "png")
        for pair in server.pairs {
            let answer = try await ConformanceAnswer.get(server.url(path, signature: server.sign(path, with: pair)))
            #expect(answer.status == 200 && answer.size == .init(width: 4, height: 4), "\(answer.text)")
        }
        let whole = IndependentHMAC.signature(key: server.pairs[0].key, salt: server.pairs[0].salt, path: path)
        #expect(try await ConformanceAnswer.get(server.url(path, signature: whole)).status == 403)
    }
}
