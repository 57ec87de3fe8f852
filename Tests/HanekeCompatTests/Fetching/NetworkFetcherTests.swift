import CometTestSupport
import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import HanekeCompat
import Testing

/// NetworkFetcher and fetch(URL:) against the real loopback server.
@Suite(.timeLimit(.minutes(10)))
struct NetworkFetcherTests {
    init() { TestBase.prepare() }

    @Test func a200BodyIsConvertedAndDeliveredOnMain() async throws {
        let server = try await TestServer.start()
        server.serve(Data("hello".utf8), at: "hello")
        let outcome = await fetched(NetworkFetcher<String>(URL: server.imageURL("hello")))
        #expect(outcome.values == ["hello"])
        #expect(outcome.allOnMain)
        await server.stop()
    }

    @Test func theSessionIsSharedUnlessOverridden() {
        #expect(NetworkFetcher<String>(URL: URL(string: "http://127.0.0.1:9/")!).session === URLSession.shared)
    }

    @Test func anOverriddenSessionsHeadersReachTheServer() async throws {
        let server = try await SharedTestServer.common.server
        server.handle("/haneke-echo-session") { request in
            HTTPResponse(statusCode: .ok, body: Data((request.headers[HTTPHeader("X-App")] ?? "none").utf8))
        }
        let outcome = await fetched(HeaderSessionFetcher<String>(URL: server.url("/haneke-echo-session")))
        #expect(outcome.values == ["legacy"])
    }

    @Test func anEmpty204FailsWithMinus402() async throws {
        let server = try await SharedTestServer.common.server
        let outcome = await fetched(NetworkFetcher<Data>(URL: server.url("/status/204")))
        #expect(outcome.error?.code == -402)
    }

    @Test func a201BodyIsAccepted() async throws {
        let server = try await TestServer.start()
        server.handle("/created") { _ in HTTPResponse(statusCode: .created, body: Data("made".utf8)) }
        let outcome = await fetched(NetworkFetcher<String>(URL: server.url("/created")))
        #expect(outcome.values == ["made"])
        await server.stop()
    }

    @Test func anotherSuccessStatusFailsWithMinus402() async throws {
        let server = try await TestServer.start()
        server.handle("/accepted") { _ in HTTPResponse(statusCode: .accepted, body: Data("later".utf8)) }
        let outcome = await fetched(NetworkFetcher<String>(URL: server.url("/accepted")))
        #expect(outcome.error?.code == -402)
        await server.stop()
    }

    @Test func a404FailsWithMinus402DescribedByTheStatusText() async throws {
        let server = try await TestServer.start()
        let outcome = await fetched(NetworkFetcher<Data>(URL: server.imageURL("missing")))
        #expect(outcome.error?.domain == "io.haneke")
        #expect(outcome.error?.code == HanekeGlobals.NetworkFetcher.ErrorCode.invalidStatusCode.rawValue)
        #expect(outcome.error?.localizedDescription == HTTPURLResponse.localizedString(forStatusCode: 404))
        #expect(outcome.allOnMain)
        await server.stop()
    }

    @Test func aBodyShorterThanItsContentLengthFailsWithMinus401() async throws {
        let server = try FaultServer()
        let outcome = await fetched(NetworkFetcher<Data>(URL: server.url("/short")))
        #expect(outcome.error?.code == -401)
        #expect(outcome.error?.localizedDescription == "Request expected 10000 bytes and received 1000 bytes")
    }

    @Test func bytesThatDoNotConvertFailWithMinus400() async throws {
        let server = try await TestServer.start()
        server.serve(Data("not an image".utf8), at: "text")
        let outcome = await fetched(NetworkFetcher<Image>(URL: server.imageURL("text")))
        #expect(outcome.error?.code == -400)
        #expect(outcome.values.isEmpty)
        await server.stop()
    }

    // On the main actor: a callback already queued for main when cancelFetch() runs must be dropped.
    @Test @MainActor func aCancelledFetchNeverCallsBack() async throws {
        let server = try await TestServer.start()
        server.serve(Data("late".utf8), at: "late")
        let fetcher = NetworkFetcher<String>(URL: server.url("/slow/300/late"))
        let outcome = Outcome<String>()
        fetcher.fetch(failure: outcome.fail, success: outcome.succeed)
        fetcher.cancelFetch()
        #expect(!(await outcome.wait(1.5)))
        await server.stop()
    }

    @Test func theKeyIsTheAbsoluteURL() {
        let url = URL(string: "https://example.com/a.png?x=1")!
        #expect(NetworkFetcher<Data>(URL: url).key == "https://example.com/a.png?x=1")
    }

    @Test func fetchURLDownloadsOnceThenServesTheCache() async throws {
        let server = try await TestServer.start()
        server.serve(TestImages.png(width: 10, height: 6), at: "pic.png")
        let cache = Cache<Image>(name: TestBase.uniqueName())
        let first = Outcome<Image>()
        cache.fetch(URL: server.imageURL("pic.png"), failure: first.fail, success: first.succeed)
        #expect(await first.wait())
        #expect(first.value?.width == 10)
        #expect(first.allOnMain)
        let second = Outcome<Image>()
        cache.fetch(URL: server.imageURL("pic.png"), success: second.succeed)
        #expect(second.value?.height == 6)  // memory hit: synchronous
        #expect(server.requestCount(for: "/images/pic.png") == 1)
        await server.stop()
    }

    @Test func fetchURLStoresTheFormattedValue() async throws {
        let server = try await TestServer.start()
        server.serve(Data("abc".utf8), at: "abc")
        let cache = Cache<String>(name: TestBase.uniqueName())
        cache.addFormat(Format<String>(name: "upper") { $0.uppercased() })
        let outcome = Outcome<String>()
        cache.fetch(URL: server.imageURL("abc"), formatName: "upper", success: outcome.succeed)
        #expect(await outcome.wait())
        #expect(outcome.values == ["ABC"])
        await server.stop()
    }

    @Test func fetchURLPassesNetworkErrorsOn() async throws {
        let server = try await TestServer.start()
        let cache = Cache<Data>(name: TestBase.uniqueName())
        let outcome = Outcome<Data>()
        cache.fetch(URL: server.url("/status/500"), failure: outcome.fail, success: outcome.succeed)
        #expect(await outcome.wait())
        #expect(outcome.error?.code == -402)
        await server.stop()
    }
}

/// A session adding `X-App: legacy` to its requests.
private let headerSession: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpAdditionalHeaders = ["X-App": "legacy"]
    return URLSession(configuration: configuration)
}()

/// A fetcher whose session adds `X-App: legacy`, as apps overrode `session`.
final class HeaderSessionFetcher<T: DataConvertible>: NetworkFetcher<T>, @unchecked Sendable {
    override var session: URLSession { headerSession }
}
