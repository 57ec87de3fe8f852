@testable import CometServer
import Foundation
import Testing

/// The host read from a canonical spelling without parsing it again is Foundation's.
@Suite("Hosts of canonical spellings")
struct CanonicalHostTests {
    @Test(arguments: CanonicalURLTests.canonical.map(\.1))
    func theHostIsTheOneFoundationReads(_ canonical: String) throws {
        let url = try #require(URL(string: canonical))
        #expect(CanonicalURL.host(ofCanonical: canonical) == url.host?.lowercased())
    }

    /// The allow-list cases of `SourcePolicyTests`: the check of a canonical spelling decides
    /// as the check of the URL does.
    @Test(arguments: [
        (["https://img.example.com"], "https://img.example.com/a.jpg"),
        (["https://img.example.com"], "https://img.example.com.evil.net/a.jpg"),
        (["https://cdn.example.com/public/"], "https://cdn.example.com/public/a.jpg"),
        (["https://cdn.example.com/public/"], "https://cdn.example.com/private/a.jpg"),
        (["https://cdn.example.com/public"], "https://cdn.example.com/publicity/a.jpg"),
        (["cdn.example.com."], "https://cdn.example.com:8443/a.jpg"),
        (["*.example.com"], "https://a.b.example.com/a.jpg"),
        (["*.example.com"], "https://example.org/a.jpg"),
        (["::1"], "http://[::1]:8080/a.jpg"),
    ])
    func theCanonicalCheckDecidesAsTheFullCheck(_ entries: [String], _ url: String) throws {
        let policy = SourcePolicy(allowedSources: entries)
        let full = (try? policy.checkWithoutResolving(URL(string: url)!)) != nil
        let canonical = (try? policy.checkCanonical(CanonicalURL.canonicalString(url))) != nil
        #expect(canonical == full)
    }
}
