import Comet
import CometAsyncHTTPClient
import CometTestSupport
import FlyingFox
import Foundation
import Locking
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// With a `HostResolving`, the loader connects to exactly the address the resolver returned,
/// for the first request and for every redirect, and never resolves a name itself.
@Suite("AsyncHTTPClientDataLoader: connections pinned by a resolver", .timeLimit(.minutes(10)))
struct PinnedConnectionTests {
    /// Answers `127.0.0.1` for every host, and counts what it was asked.
    final class LoopbackResolver: HostResolving {
        private let asked = Locked<[String]>([])
        var hosts: [String] { asked.withLock { $0 } }
        func resolve(_ url: URL) async throws -> ResolvedURL {
            asked.withLock { $0.append("\(url.host ?? ""):\(url.port ?? 80)") }
            return ResolvedURL(url: url, address: "127.0.0.1")
        }
    }

    /// Answers a loopback address on the first lookup and another on every later one, as a
    /// rebinding DNS server would.
    final class RebindingResolver: HostResolving {
        private let lookups = Locked(0)
        let first: String
        let later: String
        init(first: String, later: String) {
            self.first = first
            self.later = later
        }
        var count: Int { lookups.withLock { $0 } }
        func resolve(_ url: URL) async throws -> ResolvedURL {
            ResolvedURL(
                url: url,
                address: lookups.withLock {
                    $0 += 1; return $0 == 1
                } ? first : later)
        }
    }

    struct Refusal: Error, Equatable {}

    /// Refuses every host.
    struct RefusingResolver: HostResolving {
        func resolve(_ url: URL) async throws -> ResolvedURL { throw Refusal() }
    }

    private func makeLoader(resolver: any HostResolving) -> AsyncHTTPClientDataLoader {
        var configuration = AsyncHTTPClientDataLoader.Configuration()
        configuration.hostResolver = resolver
        return AsyncHTTPClientDataLoader(configuration: configuration)
    }

    @Test func aNameIsFetchedFromTheResolvedAddressWithItsOwnHostHeader() async throws {
        let server = try await TestServer.start()
        let seen = SeenHeaders()
        server.handle("/named") { request in
            seen.record(request.headers[.host])
            return HTTPResponse(statusCode: .ok, body: Data("named".utf8))
        }
        let resolver = LoopbackResolver()
        // `images.invalid` resolves nowhere: only the resolver can make this load work.
        let url = URL(string: "http://images.invalid:\(server.port)/named")!
        let result = await LoadResult.load(url, with: makeLoader(resolver: resolver))
        #expect(result.error == nil)
        #expect(result.data == Data("named".utf8))
        #expect(seen.values == ["images.invalid:\(server.port)"])
        #expect(resolver.hosts == ["images.invalid:\(server.port)"])
        #expect(result.response?.url == url)
    }

    @Test func everyRedirectIsResolvedThroughTheResolver() async throws {
        let server = try await TestServer.start()
        server.serve(Data("end".utf8), at: "end")
        server.handle("/hop") { _ in
            HTTPResponse(
                statusCode: .found, headers: HTTPHeaders([.location: "http://second.invalid:\(server.port)/images/end"])
            )
        }
        let resolver = LoopbackResolver()
        let result = await LoadResult.load(
            URL(string: "http://first.invalid:\(server.port)/hop")!,
            with: makeLoader(resolver: resolver))
        #expect(result.data == Data("end".utf8))
        #expect(resolver.hosts == ["first.invalid:\(server.port)", "second.invalid:\(server.port)"])
    }

    @Test func aRebindingAnswerAfterTheCheckIsNeverConnectedTo() async throws {
        // 127.0.0.1 is the checked answer; 127.0.0.2 (the same loopback interface, another
        // address) is what a rebinding DNS server would answer the second time. Only the
        // first server exists on 127.0.0.1's port, so a second lookup would fail the load.
        let server = try await TestServer.start()
        server.serve(Data("checked".utf8), at: "a")
        let resolver = RebindingResolver(first: "127.0.0.1", later: "203.0.113.9")
        let loader = makeLoader(resolver: resolver)
        let result = await LoadResult.load(URL(string: "http://rebind.invalid:\(server.port)/images/a")!, with: loader)
        #expect(result.error == nil)
        #expect(result.data == Data("checked".utf8))
        #expect(resolver.count == 1)
    }

    @Test func aNewAnswerForAHostMovesItsLaterConnections() async throws {
        let first = try await TestServer.start()
        first.serve(Data("one".utf8), at: "x")
        let resolver = RebindingResolver(first: "127.0.0.1", later: "127.0.0.2")
        let loader = makeLoader(resolver: resolver)
        let url = URL(string: "http://moving.invalid:\(first.port)/images/x")!
        let before = await LoadResult.load(url, with: loader)
        #expect(before.data == Data("one".utf8))
        // The server listens on 127.0.0.1 only: the second answer's connection is refused,
        // which shows the load went where the resolver said and not to a cached connection.
        let after = await LoadResult.load(url, with: loader)
        #expect(after.urlErrorCode == .cannotConnectToHost)
        #expect(resolver.count == 2)
    }

    /// Sends every request for `/old/…` to `/images/…` instead, as a canonicalising server would.
    struct RewritingResolver: HostResolving {
        func resolve(_ url: URL) async throws -> ResolvedURL {
            let path = url.path.replacingOccurrences(of: "/old/", with: "/images/")
            return ResolvedURL(url: URL(string: path, relativeTo: url)!.absoluteURL, address: "127.0.0.1")
        }
    }

    @Test func theResolversURLIsTheOneRequested() async throws {
        let server = try await TestServer.start()
        server.serve(Data("new".utf8), at: "n")
        let result = await LoadResult.load(server.url("/old/n"), with: makeLoader(resolver: RewritingResolver()))
        #expect(result.data == Data("new".utf8))
        #expect(server.requestCount(for: "/old/n") == 0)
    }

    @Test func aResolverThatThrowsRefusesTheLoadWithItsError() async throws {
        let server = try await TestServer.start()
        server.serve(Data("x".utf8), at: "x")
        let result = await LoadResult.load(server.imageURL("x"), with: makeLoader(resolver: RefusingResolver()))
        #expect(result.error as? Refusal == Refusal())
        #expect(server.requestCount(for: "/images/x") == 0)
    }
}
