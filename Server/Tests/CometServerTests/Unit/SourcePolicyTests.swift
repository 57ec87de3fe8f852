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
        await #expect(throws: ServiceError.self) { try await SourcePolicy().check(URL(string: "http://127.0.0.1/x.jpg")!) }
        await #expect(throws: ServiceError.self) { try await SourcePolicy().check(URL(string: "http://[::1]/x.jpg")!) }
        await #expect(throws: ServiceError.self) { try await SourcePolicy().check(URL(string: "http://169.254.169.254/")!) }
        await #expect(throws: Never.self) {
            try await SourcePolicy(allowsPrivateNetworks: true).check(URL(string: "http://127.0.0.1/x.jpg")!)
        }
    }
}
