import CometServer
import Foundation
import Testing

/// Every known spelling trick, with the one canonical form it becomes or the refusal it gets.
@Suite("Canonical source URLs")
struct CanonicalURLTests {
    /// Spellings that have a canonical form, and that form.
    static let canonical: [(String, String)] = [
        // Case, default ports, empty path, fragment.
        ("HTTP://Example.COM/a.jpg", "http://example.com/a.jpg"),
        ("https://example.com:443/a.jpg", "https://example.com/a.jpg"),
        ("http://example.com:80/a.jpg", "http://example.com/a.jpg"),
        ("http://example.com:8080/a.jpg", "http://example.com:8080/a.jpg"),
        ("https://example.com", "https://example.com/"),
        ("http://example.com/a.jpg#top", "http://example.com/a.jpg"),
        // Trailing dot of a fully qualified name.
        ("http://example.com./a.jpg", "http://example.com/a.jpg"),
        // Dot segments, plain and encoded.
        ("http://h/public/../private/b.jpg", "http://h/private/b.jpg"),
        ("http://h/public/./a.jpg", "http://h/public/a.jpg"),
        ("http://h/public/%2e%2e/private/b.jpg", "http://h/private/b.jpg"),
        ("http://h/public/%2E%2E/private/b.jpg", "http://h/private/b.jpg"),
        ("http://h/public/.%2e/private/b.jpg", "http://h/private/b.jpg"),
        ("http://h/public/%2e/a.jpg", "http://h/public/a.jpg"),
        ("http://h/../../etc/passwd", "http://h/etc/passwd"),
        ("http://h/public/..", "http://h/"),
        ("http://h/a/b/.", "http://h/a/b/"),
        // Escapes: unreserved decoded, others upper-cased, raw specials encoded.
        ("http://h/%41%62%63.jpg", "http://h/Abc.jpg"),
        ("http://h/a%3fb.jpg", "http://h/a%3Fb.jpg"),
        ("http://h/a%7e.jpg", "http://h/a~.jpg"),
        ("http://h/a|b.jpg", "http://h/a%7Cb.jpg"),
        ("http://h/a.jpg?w=1&x=%2f", "http://h/a.jpg?w=1&x=%2F"),
        ("http://h/a.jpg?p=/x/../y", "http://h/a.jpg?p=/x/../y"),
        // IPv4 shorthand, as the URL standard parses it.
        ("http://127.1/", "http://127.0.0.1/"),
        ("http://0x7f.0.0.1/", "http://127.0.0.1/"),
        ("http://0x7F000001/", "http://127.0.0.1/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://0177.0.0.1/", "http://127.0.0.1/"),
        ("http://169.254.43518/", "http://169.254.169.254/"),
        ("http://10.1.2.3./", "http://10.1.2.3/"),
        // Found by the url-path fuzzer: a label of more than 32 digits was read as a name, which
        // the system's resolver reads as an address.
        ("http://" + String(repeating: "0", count: 40) + "/", "http://0.0.0.0/"),
        ("http://0x" + String(repeating: "0", count: 40) + "7f000001/", "http://127.0.0.1/"),
        ("http://127.0.0." + String(repeating: "0", count: 40) + "1/", "http://127.0.0.1/"),
        // IPv6 forms.
        ("http://[::1]/", "http://[::1]/"),
        ("http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"),
        ("http://[::FFFF:127.0.0.1]:8080/", "http://[::ffff:127.0.0.1]:8080/"),
        ("http://[FE80::1]/", "http://[fe80::1]/"),
        // International names in their xn-- form pass as they are.
        ("http://xn--bcher-kva.example/a.jpg", "http://xn--bcher-kva.example/a.jpg"),
    ]

    /// Spellings that have no safe canonical form.
    static let refused: [String] = [
        "ftp://example.com/a.jpg",
        "http:/example.com/a.jpg",
        "http:example.com/a.jpg",
        "//example.com/a.jpg",
        // User information, alone or hiding the host.
        "http://user@example.com/a.jpg",
        "http://user:pass@example.com/a.jpg",
        "http://allowed.example@evil.example/a.jpg",
        "http://evil.example\\@allowed.example/a.jpg",
        // Backslashes, raw or encoded, and encoded slashes in the path.
        "http://h\\evil/a.jpg",
        "http://h/public\\..\\private/b.jpg",
        "http://h/public/%2F../private/b.jpg",
        "http://h/public%2f..%2fprivate/b.jpg",
        "http://h/public/%5C../private/b.jpg",
        // Encoded controls, broken escapes, raw spaces and non-ASCII.
        "http://h/a%00.jpg",
        "http://h/a%0a.jpg",
        "http://h/a%zz.jpg",
        "http://h/a%2",
        "http://h/a b.jpg",
        "http://bücher.example/a.jpg",
        "http://h/é.jpg",
        // Hosts: percent-encoded, empty labels, bad IPv4 numbers, IPv6 zones, bad ports.
        "http://%31%32%37.0.0.1/",
        "http://exa%6Dple.com/",
        "http://a..b/",
        "http:///a.jpg",
        "http://256.0.0.1/",
        "http://1.2.3.4.5/",
        "http://0x100000000/",
        "http://" + String(repeating: "9", count: 40) + "/",
        "http://example.1.2/",
        "http://[fe80::1%25eth0]/",
        "http://[::1/",
        "http://[not::an:address:zz]/",
        "http://h:0/",
        "http://h:65536/",
        "http://h:8o/",
    ]

    @Test(arguments: canonical)
    func aSpellingBecomesItsCanonicalForm(_ input: String, _ expected: String) throws {
        #expect(try CanonicalURL.canonicalString(input) == expected)
        #expect(try CanonicalURL.canonicalString(expected) == expected, "the canonical form is a fixed point")
        #expect(try CanonicalURL.make(input).absoluteString == expected, "Foundation keeps the canonical spelling")
    }

    @Test(arguments: refused)
    func aSpellingWithoutASafeFormIsRefusedWithAReason(_ input: String) {
        #expect(throws: ServiceError.self) { try CanonicalURL.canonicalString(input) }
        do {
            _ = try CanonicalURL.canonicalString(input)
        } catch {
            #expect(error.status == 400 && error.code == "bad_url" && !error.message.isEmpty)
        }
    }
}
