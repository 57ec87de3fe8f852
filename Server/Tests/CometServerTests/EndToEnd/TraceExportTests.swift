#if OTLPExport
    import CometServer
    import Foundation
    import Testing

    /// `comet-server --otlp-endpoint`: the process exports its spans to an OpenTelemetry collector
    /// over OTLP/HTTP, in the client's trace. (Built with the OTLPExport trait, the default; the
    /// sanitizer runs build without it.)
    @Suite("OTLP trace export", .timeLimit(.minutes(10)))
    struct TraceExportTests {
        let client = HTTPClient()
        static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"

        @Test func aRequestsSpansReachTheCollectorInTheClientsTrace() async throws {
            let origin = try await OriginServer.start()
            let collector = try await TraceCollector.start()
            let server = try await ServerProcess.start(
                [
                    "--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning", "--otlp-endpoint",
                    collector.base,
                ],
                environment: ["OTEL_BSP_SCHEDULE_DELAY": "100"]
            )
            let response = try await client.get(
                server.url("rs:fill:40:40", origin.url("/img/photo.jpg")),
                headers: ["traceparent": "00-\(Self.traceID)-00f067aa0ba902b7-01"])
            #expect(response.status == 200)

            let wanted = [
                "comet-server", "GET /{signature}/{options}/{source}", "store", "image", "fetch", "decode", "process",
                "encode",
            ]
            let traceIDBytes = Self.bytes(hex: Self.traceID)
            let arrived = await eventually {
                let all = collector.bodies.flatMap { $0 }
                return wanted.allSatisfy { Self.contains(all, Array($0.utf8)) } && Self.contains(all, traceIDBytes)
            }
            let all = collector.bodies.flatMap { $0 }
            #expect(arrived, "exported: \(wanted.filter { Self.contains(all, Array($0.utf8)) }) of \(wanted)")
            #expect(Self.contains(all, traceIDBytes), "the spans continue the client's trace")
            server.terminate()
            await collector.stop()
            await origin.stop()
        }

        @Test func withoutTheOptionNothingIsExported() async throws {
            let origin = try await OriginServer.start()
            let collector = try await TraceCollector.start()
            let server = try await ServerProcess.start(
                ["--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning"],
                environment: [
                    "OTEL_BSP_SCHEDULE_DELAY": "100",
                    "OTEL_EXPORTER_OTLP_ENDPOINT": collector.base,
                ])
            #expect(try await client.get(server.url("rs:fit:32:32", origin.url("/img/photo.jpg"))).status == 200)
            try await Task.sleep(for: .milliseconds(500))
            #expect(collector.bodies.isEmpty)
            server.terminate()
            await collector.stop()
            await origin.stop()
        }

        private static func bytes(hex: String) -> [UInt8] {
            stride(from: 0, to: hex.count, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
        }

        private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            guard !needle.isEmpty, haystack.count >= needle.count else { return false }
            return (0...(haystack.count - needle.count)).contains { start in
                haystack[start..<start + needle.count].elementsEqual(needle)
            }
        }
    }
#endif
