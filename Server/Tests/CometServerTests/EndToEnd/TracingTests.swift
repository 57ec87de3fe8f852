import CometServer
import Foundation
import InMemoryTracing
import Logging
import ServerTestSupport
import Testing
import Tracing
#if canImport(Glibc)
    import Glibc
#endif

/// Every request is traced: a server span continuing the client's `traceparent`, with the
/// service's `store`, `image`, `fetch`, `decode`, `process` and `encode` spans under it, and the
/// trace passed on to the origin.
@Suite("Tracing", .timeLimit(.minutes(10)))
struct TracingTests {
    let client = HTTPClient()
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"

    @Test func aRequestContinuesTheClientsTraceAndPassesItToTheOrigin() async throws {
        let tracer = W3CTestTracer()
        var configuration = RunningServer.configuration()
        configuration.sourcePolicy = SourcePolicy(allowsPrivateNetworks: true)
        configuration.tracer = tracer
        let server = try await RunningServer.start(configuration)
        let origin = LoopbackSocket.silentListener()
        defer { close(origin.descriptor) }
        let url = server.url("rs:fit:32:32", URL(string: "http://127.0.0.1:\(origin.port)/traced.jpg")!)
        let answer = Task {
            try await client.get(url, headers: ["traceparent": "00-\(Self.traceID)-00f067aa0ba902b7-01"])
        }
        let fetch = await DisconnectTests.acceptFetch(origin.descriptor)
        try #require(fetch >= 0)
        defer { close(fetch) }
        let fetchRequest = LoopbackSocket.receive(on: fetch, within: 5)
        #expect(fetchRequest.lowercased().contains("traceparent: 00-\(Self.traceID)-"), "the origin sees the trace")
        let body = OriginServer.photo
        LoopbackSocket.send(
            "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n",
            on: fetch)
        LoopbackSocket.send(bytes: body, on: fetch)
        #expect(try await answer.value.status == 200)
        #expect(try await answer.value.header("X-Cache") == "MISS")

        let spans = await eventuallySpans(tracer, count: 6)
        let byName = Dictionary(spans.map { ($0.operationName, $0) }, uniquingKeysWith: { first, _ in first })
        let serverSpan = try #require(byName["GET /{signature}/{options}/{source}"])
        #expect(serverSpan.kind == .server)
        #expect(serverSpan.traceID == Self.traceID, "the client's trace is continued")
        #expect(serverSpan.parentSpanID == "00f067aa0ba902b7")
        #expect(serverSpan.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        for name in ["store", "image", "fetch", "decode", "encode"] {
            let span = try #require(byName[name], "a \(name) span")
            #expect(span.traceID == Self.traceID, "\(name) is in the client's trace")
        }
        #expect(byName["store"]?.parentSpanID == serverSpan.spanID)
        #expect(byName["fetch"]?.kind == .client)
        #expect(
            byName["fetch"]?.parentSpanID == byName["image"]?.spanID,
            "the pipeline's spans are the image span's children")
        #expect(byName["decode"]?.parentSpanID == byName["image"]?.spanID)
        #expect(byName["decode"]?.attributes["comet.source.size"]?.toSpanAttribute() == .int64(Int64(body.count)))
        #expect(
            byName["decode"]?.attributes["comet.image.width"]?.toSpanAttribute() == 32,
            "the thumbnail is decoded reduced")
        #expect(byName["fetch"]?.attributes["server.address"]?.toSpanAttribute() == "127.0.0.1")
        #expect(byName["fetch"]?.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(byName["store"]?.attributes["comet.cache"]?.toSpanAttribute() == "miss")
        #expect(
            fetchRequest.contains(String(W3CTestTracer.sixteenHex(byName["fetch"]!.spanID))),
            "the fetch span is the origin's parent")
        await server.stop()
    }

    @Test func aFillIsTracedAsADecodeThenAProcessSpanInTheRequestsTrace() async throws {
        let tracer = W3CTestTracer()
        try await withOriginAndServer({ configuration, _ in configuration.tracer = tracer }) { origin, server in
            let response = try await client.get(
                server.url("rs:fill:40:40", origin.url("/img/photo.jpg")),
                headers: ["traceparent": "00-\(Self.traceID)-00f067aa0ba902b7-01"])
            #expect(response.status == 200)
            let process = try #require(await eventuallySpans(tracer, count: 1, named: "process").first)
            let decode = try #require(tracer.recorder.finishedSpans.first { $0.operationName == "decode" })
            #expect(process.traceID == Self.traceID && decode.traceID == Self.traceID)
            #expect(process.attributes["comet.image.width"]?.toSpanAttribute() == 40)
            #expect(process.attributes["comet.processor"] != nil)
            #expect(decode.startInstant.nanosecondsSinceEpoch <= process.startInstant.nanosecondsSinceEpoch)
            #expect(process.startInstant.nanosecondsSinceEpoch <= process.endInstant.nanosecondsSinceEpoch)
        }
    }

    @Test func aStoredResultIsAHit() async throws {
        let tracer = W3CTestTracer()
        try await withOriginAndServer({ configuration, _ in configuration.tracer = tracer }) { origin, server in
            let url = server.url("rs:fit:32:32", origin.url("/img/photo.jpg"))
            let first = try await client.get(url)
            #expect(first.header("X-Cache") == "MISS")
            let second = try await client.get(url)
            #expect(second.header("X-Cache") == "HIT")
            let stores = await eventuallySpans(tracer, count: 1, named: "store", atLeast: 2)
            #expect(stores.map { $0.attributes["comet.cache"]?.toSpanAttribute() } == ["miss", "hit"])
        }
    }

    @Test func eachRequestWritesOneAccessLogLine() async throws {
        let records = CapturingLogHandler.Records()
        let access = Logger(label: "test.access") { _ in CapturingLogHandler(records: records) }
        let origin = try await OriginServer.start()
        var configuration = RunningServer.configuration()
        configuration.tracer = W3CTestTracer()
        let server = try await RunningServer.start(configuration, accessLogger: access)
        let url = server.url("rs:fit:32:32", origin.url("/img/photo.jpg"))
        let image = try await client.get(url)
        _ = try await client.get(URL(string: server.base + "/health")!)
        let lines = records.all.filter { $0.message == "access" }
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first.level == .info)
        #expect(first.metadata["status"] == "200" && first.metadata["method"] == "GET")
        #expect(first.metadata["bytes"] == String(image.body.count))
        #expect(first.metadata["cache"] == "miss")
        #expect(Double(first.metadata["duration_ms"] ?? "") != nil)
        #expect(lines.last?.metadata["path"] == "/health")
        await server.stop()
        await origin.stop()
    }

    /// The finished spans once `count` of them (named `name`, if given) have ended (at most 5 s).
    func eventuallySpans(_ tracer: W3CTestTracer, count: Int, named name: String? = nil, atLeast: Int? = nil) async
        -> [FinishedInMemorySpan]
    {
        let wanted = atLeast ?? count
        _ = await eventually {
            tracer.recorder.finishedSpans.filter { name == nil || $0.operationName == name }.count >= wanted
        }
        return tracer.recorder.finishedSpans.filter { name == nil || $0.operationName == name }
    }
}
