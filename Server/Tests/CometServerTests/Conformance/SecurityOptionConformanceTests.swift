import Foundation
import Testing

/// imgproxy's security options (`max_src_resolution`/`msr`, `max_src_file_size`/`msfs`,
/// `max_animation_frames`/`maf`, `max_animation_frame_resolution`/`mafr`,
/// `max_result_dimension`/`mrd`): refused unless `IMGPROXY_ALLOW_SECURITY_OPTIONS` is on, then
/// each a limit for the request. The "on" cases run the `comet-server` command with that
/// variable, as an imgproxy deployment sets it.
@Suite("Conformance: security options", .timeLimit(.minutes(10)))
struct SecurityOptionConformanceTests {
    private static let options = [
        "msr:1", "max_src_resolution:1", "msfs:1000000", "max_src_file_size:1000000", "maf:5",
        "max_animation_frames:5", "mafr:1", "max_animation_frame_resolution:1", "mrd:1000", "max_result_dimension:1000",
    ]

    /// imgproxy: options/parser/errors.go's SecurityOptionsError and apply.go's
    /// IsSecurityOptionsAllowed (403 when they are not allowed).
    @Test(arguments: options)
    func aSecurityOptionIs403WhenNotAllowed(_ option: String) async throws {
        let origin = try await ConformanceOrigin.get()
        let answer = try await ConformanceServers.signed().get(
            ImgproxyPath.plain(option, origin.source("/gen/16x16.png")))
        #expect(answer.status == 403, "\(option): \(answer.text)")
    }

    /// A `comet-server` process with imgproxy's `IMGPROXY_ALLOW_SECURITY_OPTIONS=true`, signing off.
    private func allowing() async throws -> (ServerProcess, ConformanceServer) {
        let process = try await ServerProcess.start(
            ["--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning"],
            environment: ["IMGPROXY_ALLOW_SECURITY_OPTIONS": "true"])
        return (process, ConformanceServer(base: process.base, pairs: [], signatureSize: 32))
    }

    /// imgproxy: options/parser/apply.go's security options, accepted when allowed (limits the
    /// 16×16 source is within).
    @Test func securityOptionsAreAcceptedWhenAllowed() async throws {
        let origin = try await ConformanceOrigin.get()
        let (process, server) = try await allowing()
        defer { process.terminate() }
        for option in Self.options {
            let answer = try await server.get(ImgproxyPath.plain(option, origin.source("/gen/16x16.png"), ext: "png"))
            #expect(answer.status == 200 && answer.size == .init(width: 16, height: 16), "\(option): \(answer.text)")
        }
    }

    /// imgproxy: processing/processing_test.go, TestImageResolutionTooLarge (422).
    @Test func aSourceOverMaxSrcResolutionIs422() async throws {
        let origin = try await ConformanceOrigin.get()
        let (process, server) = try await allowing()
        defer { process.terminate() }
        let answer = try await server.get(ImgproxyPath.plain("msr:0.001", origin.source("/gen/200x100.jpg")))
        #expect(answer.status == 422, "\(answer.text)")
    }

    /// imgproxy: integration_test/processing_handler_test.go, TestMaxSrcFileSizeGlobal (422), for
    /// the option.
    @Test func aSourceOverMaxSrcFileSizeIs422() async throws {
        let origin = try await ConformanceOrigin.get()
        let (process, server) = try await allowing()
        defer { process.terminate() }
        let answer = try await server.get(ImgproxyPath.plain("msfs:10", origin.source("/gen/200x100.jpg")))
        #expect(answer.status == 422, "\(answer.text)")
    }

    /// imgproxy: processing's frame resolution check (`mafr`, megapixels per frame; 422).
    @Test func anAnimationOverMaxAnimationFrameResolutionIs422() async throws {
        let origin = try await ConformanceOrigin.get()
        let (process, server) = try await allowing()
        defer { process.terminate() }
        let answer = try await server.get(
            ImgproxyPath.plain("mafr:0.001", origin.source("/anim/492x229.gif"), ext: "gif"))
        #expect(answer.status == 422, "\(answer.text)")
    }

    /// imgproxy: processing/processing_test.go, TestResultSizeLimit (the result is scaled to fit
    /// the limit, padding included).
    @Test func maxResultDimensionScalesTheResultToFit() async throws {
        let origin = try await ConformanceOrigin.get()
        let (process, server) = try await allowing()
        defer { process.terminate() }
        for (options, width, height) in [
            ("mrd:50/rs:fit:100:100", 50, 25), ("mrd:50/rs:fill:100:100", 50, 50),
            ("mrd:100/rs:fill:1000:1000:1", 100, 100),
            ("mrd:100/rs:fit:0:0/rot:90", 50, 100), ("mrd:200/rs:fit:100:100/pd:100:200:300:400", 200, 129),
        ] {
            let answer = try await server.get(
                ImgproxyPath.plain(options, origin.source("/gen/200x100.jpg"), ext: "png"))
            #expect(answer.size == .init(width: width, height: height), "\(options): \(answer.text)")
        }
    }

    /// `mrd` is the last operation also after a resize made once the source is known (a device
    /// pixel ratio, a zoom): imgproxy fits every result to it.
    @Test func maxResultDimensionHoldsAfterAResizeThatReadsTheSource() async throws {
        let origin = try await ConformanceOrigin.get()
        let (process, server) = try await allowing()
        defer { process.terminate() }
        for (options, width, height) in [("mrd:50/dpr:2/rs:fit:100:100", 50, 25), ("mrd:60/z:0.5", 60, 30)] {
            let answer = try await server.get(
                ImgproxyPath.plain(options, origin.source("/gen/200x100.jpg"), ext: "png"))
            #expect(answer.size == .init(width: width, height: height), "\(options): \(answer.text)")
        }
    }
}
