import CometServer
import Foundation
import Testing

/// Sources on loopback and private networks, allow-lists and redirects.
@Suite("Source safety", .timeLimit(.minutes(10)))
struct SourceSafetyTests {
    let client = HTTPClient()

    @Test func aLoopbackSourceIsRefusedByDefault() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.sourcePolicy = SourcePolicy() }) {
            origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            #expect(answer.status == 403)
            #expect(answer.errorCode == "source_refused")
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aLoopbackSourceIsServedWhenPrivateNetworksAreAllowed() async throws {
        try await withOriginAndServer({ configuration, _ in
            configuration.sourcePolicy = SourcePolicy(allowsPrivateNetworks: true)
        }) { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            #expect(answer.status == 200)
        }
    }

    /// `localhost` is allowed by name; its redirect to 127.0.0.1 is checked again and refused.
    @Test func aRedirectFromAnAllowedHostToLoopbackIsRefused() async throws {
        try await withOriginAndServer({ configuration, _ in
            configuration.sourcePolicy = SourcePolicy(privateHosts: ["localhost"])
        }) { origin, server in
            let port = URL(string: origin.base)!.port!
            let target = "http://127.0.0.1:\(port)/img/photo.jpg"
            let source = URL(string: "http://localhost:\(port)/redirect?to=\(target)")!
            let answer = try await client.get(server.url("rs:fit:32:32", source))
            #expect(answer.status == 403)
            #expect(answer.errorCode == "source_refused")
            #expect(origin.requests("/redirect") == 1)
            #expect(origin.requests("/img/photo.jpg") == 0)
        }
    }

    @Test func aRedirectWithinAllowedHostsIsFollowed() async throws {
        try await withOriginAndServer { origin, server in
            let source = URL(string: origin.base + "/redirect?to=\(origin.base)/img/photo.jpg")!
            let answer = try await client.get(server.url("rs:fit:32:32", source))
            #expect(answer.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1)
        }
    }

    @Test func hostsOffTheAllowListAreRefusedWithoutAFetch() async throws {
        try await withOriginAndServer({ configuration, _ in
            configuration.sourcePolicy = SourcePolicy(
                allowedSources: ["https://images.example.com/"], allowsPrivateNetworks: true)
        }) { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            #expect(answer.status == 403)
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aPrefixOnTheAllowListAdmitsItsSources() async throws {
        try await withOriginAndServer({ configuration, origin in
            configuration.sourcePolicy = SourcePolicy(
                allowedSources: [origin.base + "/img/"], allowsPrivateNetworks: true)
        }) { origin, server in
            let listed = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            let unlisted = try await client.get(server.url("rs:fit:32:32", origin.url("/garbage")))
            #expect(listed.status == 200)
            #expect(unlisted.status == 403)
        }
    }

    @Test func dotSegmentsAndEncodedDotsCannotEscapeAnAllowedPrefix() async throws {
        try await withOriginAndServer({ configuration, origin in
            configuration.sourcePolicy = SourcePolicy(
                allowedSources: [origin.base + "/img/"], allowsPrivateNetworks: true)
        }) { origin, server in
            for trick in ["/img/../garbage", "/img/%2e%2e/garbage", "/img/.%2E/garbage", "/img/%2E%2E/big"] {
                let answer = try await client.get(server.url("rs:fit:32:32", URL(string: origin.base + trick)!))
                #expect(answer.status == 403, "\(trick)")
                #expect(answer.errorCode == "source_refused", "\(trick)")
            }
            let encodedSlash = try await client.get(
                server.url("rs:fit:32:32", URL(string: origin.base + "/img%2F..%2Fgarbage")!))
            #expect(encodedSlash.status == 400)
            #expect(encodedSlash.errorCode == "bad_url")
            #expect(origin.totalRequests == 0, "nothing outside the prefix was fetched")
        }
    }

    @Test func aSourceIsFetchedInItsCanonicalForm() async throws {
        try await withOriginAndServer({ configuration, origin in
            configuration.sourcePolicy = SourcePolicy(
                allowedSources: [origin.base + "/img/"], allowsPrivateNetworks: true)
        }) { origin, server in
            let answer = try await client.get(
                server.url("rs:fit:32:32", URL(string: origin.base + "/img/x/../%70hoto.jpg#frag")!))
            #expect(answer.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1)
            let again = try await client.get(server.url("rs:fit:32:32", URL(string: origin.base + "/img/photo.jpg")!))
            #expect(again.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1, "both spellings are one cached result")
        }
    }

    @Test func aRedirectTargetIsCheckedInItsCanonicalForm() async throws {
        try await withOriginAndServer({ configuration, origin in
            configuration.sourcePolicy = SourcePolicy(
                allowedSources: [origin.base + "/img/", origin.base + "/redirect"],
                allowsPrivateNetworks: true)
        }) { origin, server in
            let escaping = URL(string: origin.base + "/redirect?to=\(origin.base)/img/%2E%2E/garbage")!
            let refused = try await client.get(server.url("rs:fit:32:32", escaping))
            #expect(refused.status == 403)
            #expect(origin.requests("/garbage") == 0)
            let inside = URL(string: origin.base + "/redirect?to=\(origin.base)/img/./photo.jpg")!
            let followed = try await client.get(server.url("rs:fit:32:32", inside))
            #expect(followed.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1)
        }
    }
}
