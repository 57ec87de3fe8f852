import CometServer
import Foundation
import Testing

@Suite("Source allow-list")
struct SourcePolicyTests {
    private func allows(_ entries: [String], _ url: String) -> Bool {
        (try? SourcePolicy(allowedSources: entries).checkWithoutResolving(URL(string: url)!)) != nil
    }

    @Test func anOriginEntryDoesNotMatchALongerHost() {
        #expect(allows(["https://img.example.com"], "https://img.example.com/a.jpg"))
        #expect(!allows(["https://img.example.com"], "https://img.example.com.evil.net/a.jpg"))
    }

    @Test func aPathPrefixAdmitsOnlyItsPaths() {
        #expect(allows(["https://cdn.example.com/public/"], "https://cdn.example.com/public/a.jpg"))
        #expect(!allows(["https://cdn.example.com/public/"], "https://cdn.example.com/private/a.jpg"))
    }

    /// The spelling tricks of `CanonicalURLTests`, against a prefix entry: none reaches outside it.
    @Test(arguments: [
        "https://cdn.example.com/public/../private/a.jpg",
        "https://cdn.example.com/public/%2e%2e/private/a.jpg",
        "https://cdn.example.com/public/.%2E/private/a.jpg",
        "https://cdn.example.com/public/%2E%2E%2Fprivate/a.jpg",
        "https://cdn.example.com/public%2F..%2Fprivate/a.jpg",
        "https://cdn.example.com/public/..%5Cprivate/a.jpg",
        "https://cdn.example.com/public@evil.example/a.jpg",
        "https://cdn.example.com/publicity/a.jpg",
    ])
    func noSpellingReachesOutsideAnAllowedPrefix(_ url: String) {
        #expect(!allows(["https://cdn.example.com/public/"], url))
        #expect(!allows(["https://cdn.example.com/public"], url))
    }

    @Test func equivalentSpellingsOfAnAllowedSourceAreAllowed() {
        #expect(allows(["https://cdn.example.com/public/"], "HTTPS://CDN.Example.com:443/public/./a.jpg"))
        #expect(allows(["https://cdn.example.com/public/"], "https://cdn.example.com./public/%61.jpg"))
        #expect(allows(["https://CDN.example.com/public"], "https://cdn.example.com/public/a.jpg"))
        #expect(allows(["https://cdn.example.com/public"], "https://cdn.example.com/public"))
        #expect(allows(["cdn.example.com."], "https://cdn.example.com/a.jpg"))
    }

    @Test func theCheckReturnsTheCanonicalURLToFetch() throws {
        let url = try SourcePolicy(allowedSources: ["https://cdn.example.com/public/"])
            .checkWithoutResolving(URL(string: "https://CDN.example.com/public/x/../a.jpg")!)
        #expect(url.absoluteString == "https://cdn.example.com/public/a.jpg")
    }

    @Test func aURLWithoutACanonicalFormIsRefused() {
        #expect(throws: ServiceError.sourceRefused("the source's path holds an encoded / or \\ (%2F or %5C)")) {
            try SourcePolicy().checkWithoutResolving(URL(string: "https://cdn.example.com/a%2Fb.jpg")!)
        }
    }

    @Test func hostNamesAndWildcards() {
        #expect(allows(["cdn.example.com"], "http://CDN.example.com/a.jpg"))
        #expect(allows(["*.example.com"], "https://a.b.example.com/x.png"))
        #expect(!allows(["*.example.com"], "https://example.com.evil.net/x.png"))
        #expect(!allows(["*.example.com"], "https://notexample.com/x.png"))
    }

    @Test func anEmptyListAdmitsAnyHostButOnlyHTTP() {
        #expect(allows([], "https://anything.example/x.jpg"))
        #expect(!allows([], "ftp://anything.example/x.jpg"))
    }

    @Test func privateAddressesAreRefusedAfterResolving() async {
        await #expect(throws: ServiceError.self) {
            try await SourcePolicy().check(URL(string: "http://127.0.0.1/x.jpg")!)
        }
        await #expect(throws: ServiceError.self) { try await SourcePolicy().check(URL(string: "http://[::1]/x.jpg")!) }
        await #expect(throws: ServiceError.self) {
            try await SourcePolicy().check(URL(string: "http://169.254.169.254/")!)
        }
        await #expect(throws: Never.self) {
            try await SourcePolicy(allowsPrivateNetworks: true).check(URL(string: "http://127.0.0.1/x.jpg")!)
        }
    }
}
