import CometServer
import Foundation
import Testing

/// #29's trick table again, for `plain/` sources: a source spelling the parser refuses as
/// base64url is refused with the same status and code when written after `plain/`, raw or
/// percent-encoded, and doubly percent-encoded it is no URL at all. (The refusals of the source
/// policy, loopback and the allow-list, are the server's: `PlainSourceSafetyTests`.)
///
/// A `plain/` source is percent-decoded once, so the spellings of a trick URL `u` are:
/// - raw: `u` as written, only `%` (so `u`'s own escapes reach it: `%2e` travels as `%252e`, the
///   doubly encoded trick), `?` and `#` (a request would end its path there) and bytes a
///   request line cannot carry escaped;
/// - percent-encoded: every byte but the unreserved ones escaped;
/// - doubly percent-encoded: that, escaped again; one decoding leaves an escaped URL.
@Suite("Plain sources: the trick table")
struct PlainSourceTrickTests {
    /// The parser's refusals: `CanonicalURLTests.refused`, less the two spellings that mean
    /// another URL after `plain/` (``spellingsThatPlainReadsAsAnotherURL``), and more.
    static let tricks: [String] =
        CanonicalURLTests.refused.filter {
            !["http:/example.com/a.jpg", "http://h/a b.jpg", "http://h/é.jpg"].contains($0)
        }
        + [
            // Controls, NUL and CR LF (a header injected into the fetch), raw or encoded.
            "http://h/a\u{01}b.jpg", "http://h/a\u{00}.jpg", "http://h/a.jpg\r\nHost: evil.example",
            "http://h/a%0d%0aHost:%20evil.example", "http://h/a%09.jpg", "http://h/a%7f.jpg",
            "http://h\u{09}x/a.jpg",
            // Spaces in the scheme or the host.
            " http://h/a.jpg", "http://exa mple.com/a.jpg", "http://h /a.jpg", "http://exa%20mple.com/a.jpg",
            // Non-ASCII and upper-case international hosts, a full-width dot.
            "http://BÜCHER.example/a.jpg", "http://example。com/a.jpg", "http://ｅｘａｍｐｌｅ.com/a.jpg",
            // Encoded slashes and backslashes, upper and lower case, alone and as separators.
            "http://h/public%2F..%2Fprivate/b.jpg", "http://h/public/..%5cprivate/b.jpg", "http://h/%2f%2fevil/a.jpg",
            // User information, with the host hidden behind encoded or doubled signs.
            "http://allowed.example%40evil.example/a.jpg", "http://a@b@evil.example/a.jpg",
            "http://allowed.example:80@evil.example/a.jpg",
            // Hosts percent-encoded, half-encoded loopback, a zone, a bad port.
            "http://127%2e0.0.1/", "http://%6c%6f%63%61%6c%68%6f%73%74/", "http://[::1%25lo]/", "http://h:99999/",
        ]

    /// The ways `plain/` may carry a URL.
    enum Spelling: String, CaseIterable, CustomTestStringConvertible {
        case raw, percentEncoded, doublyPercentEncoded

        var testDescription: String { rawValue }

        /// `url` after `plain/`.
        func spell(_ url: String) -> String {
            switch self {
            case .raw:
                escaping(url) { $0 > 0x20 && $0 < 0x7F && !"%?#".utf8.contains($0) }
            case .percentEncoded:
                escaping(url, keeping: Self.isUnreserved)
            case .doublyPercentEncoded:
                escaping(escaping(url, keeping: Self.isUnreserved), keeping: Self.isUnreserved)
            }
        }

        private static func isUnreserved(_ byte: UInt8) -> Bool {
            byte < 0x80 && (isalnum(Int32(byte)) != 0 || "-._~".utf8.contains(byte))
        }

        private func escaping(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
            var output = ""
            for byte in text.utf8 {
                if keeps(byte) {
                    output.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    output += String(format: "%%%02X", byte)
                }
            }
            return output
        }
    }

    static let configuration = ServerConfiguration()

    /// How the server answers `signedPart` before any fetch: `accepted`, or the status and code.
    static func outcome(_ signedPart: String) -> String {
        do {
            _ = try ThumbnailRequest(path: "/insecure" + signedPart, accept: nil, configuration: configuration)
            return "accepted"
        } catch {
            return "\(error.status) \(error.code)"
        }
    }

    static func base64(_ url: String) -> String { "/rs:fit:32:32/" + Base64URL.encode(Array(url.utf8)) }

    static func plain(_ url: String, _ spelling: Spelling) -> String { "/rs:fit:32:32/plain/" + spelling.spell(url) }

    @Test(arguments: tricks)
    func aTrickIsRefusedAsABase64Source(_ url: String) {
        #expect(Self.outcome(Self.base64(url)) == "400 bad_url")
    }

    @Test(arguments: tricks)
    func aTrickIsRefusedAsARawPlainSourceAsItIsAsBase64(_ url: String) {
        #expect(Self.outcome(Self.plain(url, .raw)) == Self.outcome(Self.base64(url)), "\(Self.plain(url, .raw))")
    }

    @Test(arguments: tricks)
    func aTrickIsRefusedAsAPercentEncodedPlainSourceAsItIsAsBase64(_ url: String) {
        let path = Self.plain(url, .percentEncoded)
        #expect(Self.outcome(path) == Self.outcome(Self.base64(url)), "\(path)")
    }

    /// One decoding leaves `http%3A%2F%2F…`, which is no http URL: a second decoding, which
    /// would give the trick back, never happens.
    @Test(arguments: tricks)
    func aDoublyPercentEncodedTrickIsNoURL(_ url: String) {
        #expect(Self.outcome(Self.plain(url, .doublyPercentEncoded)) == "400 bad_url")
    }

    /// Written raw, a user's `@` is where a `plain/` source's extension starts: what follows is
    /// no extension, and the request is refused (400) as the user name is in base64.
    @Test(arguments: [
        "http://user@example.com/a.jpg", "http://user:pass@example.com/a.jpg",
        "http://allowed.example@evil.example/a.jpg", "http://allowed.example@evil.example/a.jpg@png",
        "http://a.example@127.0.0.1/", "http://allowed.example@evil.example",
    ])
    func aRawUserNameIsRefusedAsItIsAsBase64(_ url: String) {
        #expect(Self.outcome("/rs:fit:32:32/plain/" + url) == "400 bad_url")
        #expect(Self.outcome(Self.plain(url, .percentEncoded)) == "400 bad_url")
    }

    /// Spellings that `plain/` reads as another URL, which has a safe canonical form: a scheme's
    /// merged slash is mended (as imgproxy does, for proxies that merge `//`), and a space or a
    /// non-ASCII byte that one decoding gives back was the client's escape of it, so it is
    /// escaped again (a URL never holds it raw). In a host, it stays refused.
    static let spellingsThatPlainReadsAsAnotherURL: [(String, String)] = [
        ("http:/example.com/a.jpg", "http://example.com/a.jpg"),
        ("http%3A%2F%2Fh%2Fa%20b.jpg", "http://h/a%20b.jpg"),
        ("http://h/a%20b.jpg", "http://h/a%20b.jpg"),
        ("http://h/a%2520b.jpg", "http://h/a%20b.jpg"),
        ("http://h/%C3%A9.jpg", "http://h/%C3%A9.jpg"),
        ("http%3A%2F%2Fh%2F%C3%A9.jpg%3Fq%3D%C3%A9", "http://h/%C3%A9.jpg?q=%C3%A9"),
    ]

    @Test(arguments: spellingsThatPlainReadsAsAnotherURL)
    func aSpellingPlainReadsAsAnotherURLHasItsCanonicalForm(_ spelled: String, _ canonical: String) throws {
        let path = try ThumbnailPath(path: "/insecure/plain/" + spelled)
        #expect(path.canonicalSource == canonical)
    }

    /// A `plain/` source is decoded once: an escaped `%2F` stays an encoded slash (refused), a
    /// `%2F` written raw is a slash (the dot segment it makes is then removed as any other).
    @Test func aPlainSourceIsPercentDecodedExactlyOnce() throws {
        #expect(Self.outcome("/plain/http://h/public%252F..%252Fprivate/b.jpg") == "400 bad_url")
        let once = try ThumbnailPath(path: "/insecure/plain/http://h/public%2F..%2Fprivate/b.jpg")
        #expect(once.canonicalSource == "http://h/private/b.jpg")
    }
}
