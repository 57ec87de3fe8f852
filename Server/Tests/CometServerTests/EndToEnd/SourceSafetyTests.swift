import CometServer
import Foundation
import Testing

/// Sources on loopback and private networks, allow-lists and redirects.
@Suite("Source safety", .timeLimit(.minutes(1)))
struct SourceSafetyTests {
    let client = HTTPClient()

    @Test func aLoopbackSourceIsRefusedByDefault() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.sourcePolicy = SourcePolicy() }) { origin, server in
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
            configuration.sourcePolicy = SourcePolicy(allowedSources: ["https://images.example.com/"], allowsPrivateNetworks: true)
        }) { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            #expect(answer.status == 403)
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aPrefixOnTheAllowListAdmitsItsSources() async throws {
        try await withOriginAndServer({ configuration, origin in
            configuration.sourcePolicy = SourcePolicy(allowedSources: [origin.base + "/img/"], allowsPrivateNetworks: true)
        }) { origin, server in
            let listed = try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg")))
            let unlisted = try await client.get(server.url("rs:fit:32:32", origin.url("/garbage")))
            #expect(listed.status == 200)
            #expect(unlisted.status == 403)
        }
    }
}
