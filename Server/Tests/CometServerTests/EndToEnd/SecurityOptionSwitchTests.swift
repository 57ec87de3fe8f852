import CometServer
import Foundation
import Testing

/// How an operator allows imgproxy's security options on the built `comet-server`: the
/// `--allow-security-options` flag, or imgproxy's `IMGPROXY_ALLOW_SECURITY_OPTIONS` variable.
@Suite("comet-server's switch for the security options", .timeLimit(.minutes(10)))
struct SecurityOptionSwitchTests {
    let client = HTTPClient()

    /// The status of `msr:50` on a process started with `arguments` and `environment`.
    private func status(_ arguments: [String], environment: [String: String] = [:]) async throws -> Int {
        let origin = try await OriginServer.start()
        defer { Task { await origin.stop() } }
        let server = try await ServerProcess.start(
            ["--insecure-unsigned", "--private-host", "127.0.0.1", "--log-level", "warning"] + arguments,
            environment: environment)
        defer { server.terminate() }
        return try await client.get(server.url("msr:50/f:png", origin.url("/img/badge.png"))).status
    }

    @Test func withoutTheSwitchASecurityOptionIsA403() async throws {
        #expect(try await status([], environment: ["IMGPROXY_ALLOW_SECURITY_OPTIONS": ""]) == 403)
    }

    @Test func theFlagAllowsThem() async throws {
        #expect(try await status(["--allow-security-options"]) == 200)
    }

    @Test(arguments: ["true", "1"])
    func imgproxysVariableAllowsThem(_ value: String) async throws {
        #expect(try await status([], environment: ["IMGPROXY_ALLOW_SECURITY_OPTIONS": value]) == 200)
    }

    @Test func imgproxysVariableSetFalseKeepsThemRefused() async throws {
        #expect(try await status([], environment: ["IMGPROXY_ALLOW_SECURITY_OPTIONS": "false"]) == 403)
    }
}
