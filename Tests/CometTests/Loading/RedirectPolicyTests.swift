import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import Comet

/// The redirect decision on requests alone: which origins keep credentials, and when a
/// redirect is refused.
@Suite("Redirect policy")
struct RedirectPolicyTests {
    private func proposed(_ url: String) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.setValue("session=1", forHTTPHeaderField: "Cookie")
        request.setValue("image/*", forHTTPHeaderField: "Accept")
        return request
    }

    private func followed(_ decision: RedirectPolicy.Decision) -> URLRequest? {
        if case .follow(let request) = decision { request } else { nil }
    }

    @Test func sameOriginKeepsTheCredentials() throws {
        let decision = RedirectPolicy().decide(
            from: URL(string: "https://example.com/a"), to: proposed("https://EXAMPLE.com:443/b"))
        let request = try #require(followed(decision))
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(request.value(forHTTPHeaderField: "Cookie") == "session=1")
    }

    @Test(arguments: [
        ("https://example.com/a", "https://cdn.example.net/b"),  // host
        ("http://example.com/a", "http://example.com:8080/b"),  // port
        ("http://example.com/a", "https://example.com/b"),  // scheme, even to https
    ])
    func aChangeOfOriginDropsTheCredentials(from: String, to: String) throws {
        let request = try #require(followed(RedirectPolicy().decide(from: URL(string: from), to: proposed(to))))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(request.value(forHTTPHeaderField: "Accept") == "image/*")
    }

    @Test func httpsToHttpIsRefusedByDefault() {
        let decision = RedirectPolicy().decide(
            from: URL(string: "https://example.com/a"), to: proposed("http://example.com/a"))
        #expect(decision == .refuse)
    }

    @Test func httpsToHttpWhenAllowedIsFollowedWithoutCredentials() throws {
        let policy = RedirectPolicy(allowsInsecureRedirects: true)
        let request = try #require(
            followed(policy.decide(from: URL(string: "https://example.com/a"), to: proposed("http://example.com/a"))))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "Cookie") == nil)
    }

    @Test func returningToTheOriginalOriginAfterAnotherHostStillDropsTheCredentials() throws {
        let decision = RedirectPolicy().decide(
            from: URL(string: "https://a.example/x"), original: URL(string: "https://b.example/start"),
            to: proposed("https://a.example/y"))
        let request = try #require(followed(decision))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func defaultPortsAreTheSameOriginAsNoPort() {
        #expect(
            RedirectPolicy.isSameOrigin(URL(string: "http://example.com/")!, URL(string: "http://example.com:80/x")!))
        #expect(
            !RedirectPolicy.isSameOrigin(URL(string: "http://example.com/")!, URL(string: "http://example.com:443/x")!))
    }
}
