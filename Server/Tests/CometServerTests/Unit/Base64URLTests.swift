import CometServer
import Foundation
import Testing

@Suite("base64url")
struct Base64URLTests {
    /// Bytes of every length remainder, with every 6-bit value among them.
    static let samples: [[UInt8]] = (0..<12).map { length in
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ length) }
    }

    @Test(arguments: samples)
    func encodesAsFoundationsBase64WithTheURLAlphabetAndNoPadding(_ bytes: [UInt8]) {
        let foundation = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(Base64URL.encode(bytes) == foundation)
    }

    @Test(arguments: samples)
    func decodesWhatItEncodesWithOrWithoutPadding(_ bytes: [UInt8]) {
        let encoded = Base64URL.encode(bytes)
        let padded = encoded + String(repeating: "=", count: (4 - encoded.utf8.count % 4) % 4)
        #expect(Base64URL.decode(encoded) == bytes)
        #expect(Base64URL.decode(padded) == bytes)
    }

    @Test(arguments: ["QQ+A", "QQ/A", "QQ A", "QQé", "Q", "QQQQQ"])
    func refusesWhatIsNotBase64URL(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
