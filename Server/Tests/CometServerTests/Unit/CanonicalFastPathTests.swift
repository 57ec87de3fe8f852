@testable import CometServer
import Testing

/// `CanonicalURL.isCanonical(_:)` lets an already-canonical source skip the full rules. It may
/// say `false` too often, never `true` wrongly: whatever it accepts, the full rules give back
/// unchanged.
@Suite("Canonical source URLs: the already-canonical fast path")
struct CanonicalFastPathTests {
    @Test(arguments: [
        "https://images.example.com/catalogue/2024/spring/look-42.jpg",
        "http://example.com:8080/a.jpg?w=1&x=y",
        "https://cdn.example/a/.well-known/b.JPG?v=2&p=/x/../y",
        "http://h/",
    ])
    func recognisesAPlainSpelling(_ url: String) throws {
        #expect(Self.isCanonical(url))
        #expect(try CanonicalURL.canonicalString(url) == url)
    }

    @Test(arguments: [
        "HTTP://example.com/a.jpg", "http://Example.com/a.jpg", "https://example.com:443/a.jpg",
        "http://example.com:080/a.jpg", "https://example.com", "http://example.com?a", "http://example.com./a",
        "http://h/a/../b", "http://h/a/./b", "http://h/a/..", "http://h/%41", "http://h/a|b", "http://h/a#f",
        "http://127.1/", "http://0x7f.1/", "http://[::1]/", "http://user@h/", "http://a..b/", "http://h_x/",
    ])
    func leavesATransformableSpellingToTheFullRules(_ url: String) {
        #expect(!Self.isCanonical(url))
    }

    /// 20 000 URLs made of the characters the rules treat specially, from a fixed seed.
    @Test func acceptsOnlyWhatTheFullRulesKeepUnchanged() throws {
        let pieces = [
            "http://", "https://", "HTTP://", "h", "x", "example", ".", "..", "/", "//", ":", "80", "443", "0", "8080",
            "65536", "?", "#", "%2e", "%41", "%2F", "@", "\\", "[", "]", "-", "_", "~", "a.jpg", "1", "0x7f", "|", " ",
        ]
        var generator = SplitMix64(seed: 0xC0FFEE)
        var accepted = 0
        for _ in 0..<20_000 {
            var url = generator.next() % 2 == 0 ? "http://" : "https://"
            // Half start from a plain host, so that many reach the path's rules.
            if generator.next() % 2 == 0 { url += "example.com" }
            for _ in 0..<(1 + Int(generator.next() % 9)) { url += pieces[Int(generator.next() % UInt64(pieces.count))] }
            guard Self.isCanonical(url) else { continue }
            accepted += 1
            let bytes = Array(url.utf8)
            let canonical = try bytes.withUnsafeBufferPointer { buffer throws(ServiceError) in
                try CanonicalURL.canonicalBytes(buffer)
            }
            #expect(canonical == bytes, "\(url)")
        }
        #expect(accepted > 200, "the generator reaches the fast path")
    }

    private static func isCanonical(_ url: String) -> Bool {
        Array(url.utf8).withUnsafeBufferPointer(CanonicalURL.isCanonical)
    }
}

/// A small deterministic generator (SplitMix64), so a failure repeats.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
