import CometServer
import Foundation
import Testing

/// #29's policy tricks again, for `plain/` sources, through the real server: loopback and
/// private spellings, and dot segments out of an allowed prefix, are refused (403) written raw
/// or percent-encoded after `plain/` as they are in base64url; doubly percent-encoded they are
/// no URL (400). Requests are sent byte for byte (``RawHTTP``), and the origin is never asked.
/// (The parser's refusals: `PlainSourceTrickTests`.)
@Suite("Plain sources: the policy's trick table", .timeLimit(.minutes(10)))
struct PlainSourceSafetyTests {
    typealias Spelling = PlainSourceTrickTests.Spelling

    /// Spellings of loopback, private, link-local, reserved and multicast hosts; `P` is the
    /// origin's port.
    static let nonGlobalSources = [
        "http://127.0.0.1:P/img/photo.jpg", "http://127.1:P/img/photo.jpg", "http://0x7f.1:P/img/photo.jpg",
        "http://0x7F000001:P/img/photo.jpg", "http://2130706433:P/img/photo.jpg", "http://0177.0.0.1:P/img/photo.jpg",
        "http://127.0.0.1.:P/img/photo.jpg", "http://[::1]:P/img/photo.jpg", "http://[0:0:0:0:0:0:0:1]:P/img/photo.jpg",
        "http://[::ffff:127.0.0.1]:P/img/photo.jpg", "http://[::FFFF:7f00:1]:P/img/photo.jpg",
        "http://[64:ff9b::7f00:1]:P/img/photo.jpg", "http://localhost:P/img/photo.jpg",
        "http://localhost.:P/img/photo.jpg", "http://LOCALHOST:P/img/photo.jpg", "HTTP://LocalHost:P/img/photo.jpg",
        "http://0:P/img/photo.jpg", "http://0.0.0.0:P/img/photo.jpg", "http://[::]:P/img/photo.jpg",
        "http://10.0.0.1/a.jpg", "http://192.168.1.1/a.jpg", "http://172.16.0.1/a.jpg", "http://100.64.0.1/a.jpg",
        "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/a.jpg", "http://[fc00::1]/a.jpg",
        "http://224.0.0.1/a.jpg", "http://255.255.255.255/a.jpg",
    ]

    /// Paths under the origin that leave the allowed prefix `/img/`.
    static let escapingPaths = [
        "/img/../garbage", "/img/%2e%2e/garbage", "/img/.%2E/garbage", "/img/%2E%2E/big", "/img/./../garbage",
        "/img/x/../../garbage", "/img/..", "/img/%2e%2e", "/garbage", "/imgx/photo.jpg", "/IMG/photo.jpg",
    ]

    /// The signed request target for `signedPart`.
    static func target(_ signedPart: String) -> String {
        "/" + RunningServer.signer.signature(for: signedPart) + signedPart
    }

    static func base64(_ url: String) -> String {
        target("/rs:fit:32:32/" + Base64URL.encode(Array(url.utf8)))
    }

    static func plain(_ url: String, _ spelling: Spelling) -> String {
        target("/rs:fit:32:32/plain/" + spelling.spell(url))
    }

    /// What the server answers each of `targets`, as `status code` lines.
    static func outcomes(_ targets: [String], port: Int) async -> [String] {
        var outcomes: [String] = []
        for target in targets {
            let answer = await RawHTTP.get(port: port, target: target)
            outcomes.append("\(answer.status) \(answer.errorCode ?? "-")")
        }
        return outcomes
    }

    /// A server with the default policy (no private addresses), and the sources to try.
    func withLoopbackRefused(_ body: (OriginServer, RunningServer, _ sources: [String]) async throws -> Void)
        async throws
    {
        try await withOriginAndServer({ configuration, _ in configuration.sourcePolicy = SourcePolicy() }) {
            origin, server in
            let port = String(URL(string: origin.base)!.port!)
            try await body(
                origin, server, Self.nonGlobalSources.map { $0.replacingOccurrences(of: ":P/", with: ":\(port)/") })
        }
    }

    /// A server that allows the origin's `/img/` only, and the sources to try.
    func withPrefixAllowed(_ body: (OriginServer, RunningServer, _ sources: [String]) async throws -> Void)
        async throws
    {
        try await withOriginAndServer({ configuration, origin in
            configuration.sourcePolicy = SourcePolicy(
                allowedSources: [origin.base + "/img/"], allowsPrivateNetworks: true)
        }) { origin, server in
            try await body(origin, server, Self.escapingPaths.map { origin.base + $0 })
        }
    }

    static func port(_ server: RunningServer) -> Int { URL(string: server.base)!.port! }

    @Test func aNonGlobalHostIsRefusedAsABase64Source() async throws {
        try await withLoopbackRefused { origin, server, sources in
            let outcomes = await Self.outcomes(sources.map(Self.base64), port: Self.port(server))
            #expect(
                outcomes == Array(repeating: "403 source_refused", count: sources.count),
                "\(zip(sources, outcomes).map { "\($0) \($1)" })")
            #expect(origin.totalRequests == 0)
        }
    }

    @Test(arguments: [Spelling.raw, .percentEncoded])
    func aNonGlobalHostIsRefusedAsAPlainSourceAsItIsAsBase64(_ spelling: Spelling) async throws {
        try await withLoopbackRefused { origin, server, sources in
            // The base64url outcome, which the test above checks.
            let outcomes = await Self.outcomes(sources.map { Self.plain($0, spelling) }, port: Self.port(server))
            #expect(
                outcomes == Array(repeating: "403 source_refused", count: sources.count),
                "\(zip(sources, outcomes).map { "\($0) \($1)" })")
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aDoublyPercentEncodedNonGlobalHostIsNoURL() async throws {
        try await withLoopbackRefused { origin, server, sources in
            let outcomes = await Self.outcomes(
                sources.map { Self.plain($0, .doublyPercentEncoded) }, port: Self.port(server))
            #expect(outcomes == Array(repeating: "400 bad_url", count: sources.count))
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aPathOutOfTheAllowedPrefixIsRefusedAsABase64Source() async throws {
        try await withPrefixAllowed { origin, server, sources in
            let outcomes = await Self.outcomes(sources.map(Self.base64), port: Self.port(server))
            #expect(
                outcomes == Array(repeating: "403 source_refused", count: sources.count),
                "\(zip(sources, outcomes).map { "\($0) \($1)" })")
            #expect(origin.totalRequests == 0)
        }
    }

    @Test(arguments: [Spelling.raw, .percentEncoded])
    func aPathOutOfTheAllowedPrefixIsRefusedAsAPlainSourceAsItIsAsBase64(_ spelling: Spelling) async throws {
        try await withPrefixAllowed { origin, server, sources in
            // The base64url outcome, which the test above checks.
            let outcomes = await Self.outcomes(sources.map { Self.plain($0, spelling) }, port: Self.port(server))
            #expect(
                outcomes == Array(repeating: "403 source_refused", count: sources.count),
                "\(zip(sources, outcomes).map { "\($0) \($1)" })")
            #expect(origin.totalRequests == 0)
        }
    }

    @Test func aDoublyPercentEncodedPathOutOfTheAllowedPrefixIsNoURL() async throws {
        try await withPrefixAllowed { origin, server, sources in
            let outcomes = await Self.outcomes(
                sources.map { Self.plain($0, .doublyPercentEncoded) }, port: Self.port(server))
            #expect(outcomes == Array(repeating: "400 bad_url", count: sources.count))
            #expect(origin.totalRequests == 0)
        }
    }

    /// The raw spelling that stays in the prefix is served: the refusals above are the tricks',
    /// not the spelling's.
    @Test func theRawPlainSpellingOfAnAllowedSourceIsServed() async throws {
        try await withPrefixAllowed { origin, server, _ in
            let answer = await RawHTTP.get(
                port: Self.port(server), target: Self.plain(origin.base + "/img/x/../photo.jpg", .raw))
            #expect(answer.status == 200)
            #expect(origin.requests("/img/photo.jpg") == 1)
        }
    }

    /// Bytes a request line may not hold (a space, a control character, NUL), sent raw in a
    /// `plain/` source, are refused by the server's HTTP parser before any of the URL is read.
    @Test(arguments: [" ", "\t", "\u{00}", "\u{01}", "\u{7F}"])
    func aRawByteARequestLineCannotHoldIsRefused(_ byte: String) async throws {
        try await withPrefixAllowed { origin, server, _ in
            let target = Self.target("/rs:fit:32:32/plain/" + origin.base + "/img/a" + byte + "b.jpg")
            let answer = await RawHTTP.get(port: Self.port(server), target: target)
            #expect(answer.status == 400)
            #expect(origin.totalRequests == 0)
        }
    }
}
