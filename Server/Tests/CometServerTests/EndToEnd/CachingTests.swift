import CometServer
import Foundation
import Testing

/// ETag, Cache-Control, 304 and the result store.
@Suite("HTTP caching", .timeLimit(.minutes(10)))
struct CachingTests {
    let client = HTTPClient()

    @Test func resultsCarryAnETagAndMaxAge() async throws {
        try await withOriginAndServer({ configuration, _ in configuration.cacheMaxAge = 600 }) { origin, server in
            let answer = try await client.get(server.url("rs:fit:32:32/f:jpeg", origin.url("/img/photo.jpg")))
            #expect(answer.header("Cache-Control") == "public, max-age=600")
            let etag = try #require(answer.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 10)
        }
    }

    @Test func aMatchingIfNoneMatchGets304WithoutABody() async throws {
        try await withOriginAndServer { origin, server in
            let url = server.url("rs:fit:32:32/f:jpeg", origin.url("/img/photo.jpg"))
            let first = try await client.get(url)
            let etag = try #require(first.header("ETag"))
            let second = try await client.get(url, headers: ["If-None-Match": etag])
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.header("ETag") == etag)
            let other = try await client.get(url, headers: ["If-None-Match": "\"something-else\""])
            #expect(other.status == 200)
        }
    }

    @Test func theETagFollowsTheSourcesValidator() async throws {
        try await withOriginAndServer { origin, server in
            let plain = try await client.get(server.url("rs:fit:32:32/f:jpeg", origin.url("/img/photo.jpg")))
            let tagged = try await client.get(server.url("rs:fit:32:32/f:jpeg", origin.url("/img/tagged.jpg")))
            #expect(plain.body == tagged.body)
            #expect(plain.header("ETag") != tagged.header("ETag"))
        }
    }

    @Test func aRepeatedRequestIsServedWithoutFetchingAgain() async throws {
        try await withOriginAndServer { origin, server in
            let url = server.url("rs:fill:40:40/f:webp", origin.url("/img/photo.jpg"))
            let first = try await client.get(url)
            let second = try await client.get(url)
            #expect(first.body == second.body)
            #expect(origin.requests("/img/photo.jpg") == 1)
        }
    }

    @Test func concurrentRequestsForOneResultFetchOnce() async throws {
        try await withOriginAndServer { origin, server in
            let url = server.url("rs:fill:40:40/f:png", origin.url("/slow/300/photo.jpg"))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await client.get(url).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 10))
            #expect(origin.requests("/slow/300/photo.jpg") == 1)
        }
    }
}
