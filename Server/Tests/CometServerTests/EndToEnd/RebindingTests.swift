import CometServer
import Foundation
import Locking
import Testing

/// The address a source is fetched from is the one the policy checked: the fetch connects to
/// the policy's own resolution, and never asks DNS a second time.
@Suite("DNS rebinding", .timeLimit(.minutes(10)))
struct RebindingTests {
    let client = HTTPClient()

    /// A DNS that answers `first` to the first lookup of a name and `later` to every other, as
    /// a rebinding attacker's server does; it counts the lookups.
    final class RebindingDNS: Sendable {
        private let lookups = Locked(0)
        let first: HostResolver.Address
        let later: HostResolver.Address
        init(first: HostResolver.Address, later: HostResolver.Address) {
            self.first = first
            self.later = later
        }
        var count: Int { lookups.withLock { $0 } }
        var resolver: HostResolver {
            HostResolver { _ in
                .success([
                    self.lookups.withLock {
                        $0 += 1; return $0 == 1
                    } ? self.first : self.later
                ])
            }
        }
    }

    @Test func aNameIsFetchedFromTheAddressThePolicyResolvedIt() async throws {
        // `pinned.invalid` exists only in the policy's DNS: the fetch can reach the origin only
        // by connecting where that DNS said.
        let dns = RebindingDNS(first: [127, 0, 0, 1], later: [127, 0, 0, 1])
        try await withOriginAndServer({ configuration, _ in
            configuration.sourcePolicy = SourcePolicy(privateHosts: ["pinned.invalid"], resolver: dns.resolver)
        }) { origin, server in
            let port = URL(string: origin.base)!.port!
            let source = URL(string: "http://pinned.invalid:\(port)/img/photo.jpg")!
            let answer = try await client.get(server.url("rs:fit:32:32", source))
            #expect(answer.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1)
            #expect(dns.count == 1)
        }
    }

    @Test func aSecondAnswerPointingInsideIsNeverConnectedTo() async throws {
        // The check sees a global address; a rebinding DNS would then answer loopback, where
        // the origin (standing for an internal service) listens. The fetch connects to the
        // checked address (unreachable here), so the internal service gets no request.
        let dns = RebindingDNS(first: [8, 8, 8, 8], later: [127, 0, 0, 1])
        try await withOriginAndServer({ configuration, _ in
            configuration.sourcePolicy = SourcePolicy(resolver: dns.resolver)
            configuration.fetchLimits.timeout = 1
        }) { origin, server in
            let port = URL(string: origin.base)!.port!
            let source = URL(string: "http://rebind.invalid:\(port)/img/photo.jpg")!
            let answer = try await client.get(server.url("rs:fit:32:32", source))
            #expect(answer.status == 502 || answer.status == 504)
            #expect(origin.totalRequests == 0)
            #expect(dns.count == 1)
        }
    }

    @Test func aRedirectTargetIsResolvedAndPinnedOnItsOwn() async throws {
        // Both names are the policy's; the redirect's host gets its own lookup and connection.
        let dns = RebindingDNS(first: [127, 0, 0, 1], later: [127, 0, 0, 1])
        try await withOriginAndServer({ configuration, _ in
            configuration.sourcePolicy = SourcePolicy(
                privateHosts: ["one.invalid", "two.invalid"], resolver: dns.resolver)
        }) { origin, server in
            let port = URL(string: origin.base)!.port!
            let target = "http://two.invalid:\(port)/img/photo.jpg"
            let source = URL(string: "http://one.invalid:\(port)/redirect?to=\(target)")!
            let answer = try await client.get(server.url("rs:fit:32:32", source))
            #expect(answer.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1)
            #expect(dns.count == 2)
        }
    }
}
