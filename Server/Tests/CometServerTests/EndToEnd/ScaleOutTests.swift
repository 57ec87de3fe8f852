import CometServer
import Foundation
import ServerTestSupport
import Testing

/// Two `comet-server` processes sharing one real `redis-server`, as instances behind a load
/// balancer run.
@Suite(
    "Scale-out over Redis",
    .enabled(if: RedisServerProcess.isAvailable, "needs redis-server (apt-get install redis-server)"),
    .timeLimit(.minutes(10)))
struct ScaleOutTests {
    let client = HTTPClient()

    static func instance(redisPort: Int) async throws -> ServerProcess {
        try await ServerProcess.start([
            "--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "error",
            "--redis", "127.0.0.1:\(redisPort)",
        ])
    }

    /// 20 clients ask for one thumbnail at once, alternating between the two instances, while
    /// the origin takes 400 ms: one instance fetches and makes it, the other waits for it in
    /// Redis, and every client gets the same bytes.
    @Test func twentyRequestsOverTwoInstancesFetchTheSourceOnceAndAnswerTheSameBytes() async throws {
        let redis = try RedisServerProcess()
        let origin = try await OriginServer.start()
        defer { Task { await origin.stop() } }
        let first = try await Self.instance(redisPort: redis.port)
        let second = try await Self.instance(redisPort: redis.port)
        let source = origin.url("/slow/400/photo.jpg")
        let answers = try await withThrowingTaskGroup(of: HTTPClient.Answer.self) { group in
            for index in 0..<20 {
                let server = index.isMultiple(of: 2) ? first : second
                group.addTask { try await client.get(server.url("rs:fill:64:64/f:png", source)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0.status == 200 })
        #expect(Set(answers.map(\.body)).count == 1)
        #expect(Magic.isPNG(answers[0].body))
        #expect(origin.requests("/slow/400/photo.jpg") == 1)
    }

    /// Redis is killed between two batches: the second batch is served from the source and
    /// memory, every request succeeds, and `/metrics` counts the fallbacks.
    @Test func redisStoppedMidRunEveryRequestStillSucceedsAndTheFallbackIsCounted() async throws {
        let redis = try RedisServerProcess()
        let origin = try await OriginServer.start()
        defer { Task { await origin.stop() } }
        let server = try await Self.instance(redisPort: redis.port)
        let source = origin.url("/img/photo.jpg")
        for size in 20..<25 {
            #expect(try await client.get(server.url("rs:fit:\(size):\(size)", source)).status == 200)
        }
        redis.kill()
        for size in 30..<40 {
            let answer = try await client.get(server.url("rs:fit:\(size):\(size)", source))
            #expect(answer.status == 200)
            #expect(Magic.isJPEG(answer.body))
        }
        let metrics = String(decoding: try await client.get(URL(string: server.base + "/metrics")!).body, as: UTF8.self)
        let fallbacks = metrics.split(separator: "\n").first { $0.hasPrefix("comet_redis_fallbacks_total") }
        let count = fallbacks.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
        #expect(count >= 10, "comet_redis_fallbacks_total: \(fallbacks.map(String.init) ?? "missing")")
    }
}
