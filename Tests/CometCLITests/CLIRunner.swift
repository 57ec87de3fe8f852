import Foundation
import XCTest

/// Why the `comet` executable could not be run.
enum CLIRunnerError: Error, CustomStringConvertible {
    case executableNotFound([String])

    var description: String {
        switch self {
        case .executableNotFound(let paths):
            "the comet executable is not built (`swift build --build-tests` builds it); looked in \(paths)"
        }
    }
}

/// Runs the built `comet` executable as a subprocess and collects its output.
enum CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `comet` binary next to the test bundle (`.build/<config>/comet`).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("comet"))
            candidates.append(bundle.bundleURL.appendingPathComponent("comet"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/comet"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CLIRunnerError.executableNotFound(candidates.map(\.path))
        }
        return found
    }

    /// Runs `comet arguments…` with `environment` added, waiting at most `timeout` seconds
    /// (then the process is killed and the test fails).
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) async throws
        -> Result
    {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice

        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Drain both pipes on threads of their own (a full pipe would block the child).
        let output = Drain(stdout.fileHandleForReading), errors = Drain(stderr.fileHandleForReading)
        let finished: Bool = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                if exited.wait(timeout: .now() + timeout) == .timedOut {
                    process.terminate()
                    continuation.resume(returning: false)
                } else {
                    continuation.resume(returning: true)
                }
            }
        }
        let result = Result(status: process.terminationStatus, stdout: output.wait(), stderr: errors.wait())
        if !finished {
            XCTFail(
                "comet \(arguments.joined(separator: " ")) did not finish in \(timeout) s; stderr: \(result.stderr)")
        }
        return result
    }

    /// Reads a file handle to its end on a background thread.
    private final class Drain: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            DispatchQueue.global().async { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func wait() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
