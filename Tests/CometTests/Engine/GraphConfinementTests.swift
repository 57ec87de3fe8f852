import Foundation
import Testing

/// The graph's confinement is checked by the compiler: code outside the graph has no
/// ``GraphToken`` and cannot get one, so it cannot call a graph-only method. Each test compiles a
/// small file against the Comet module this suite was built with (`@testable import`, as the
/// graph's API is internal) and expects the compiler's verdict.
@Suite("Graph confinement: the compiler refuses graph-only calls from outside the graph")
struct GraphConfinementTests {
    /// The control: the same calls made from a closure the executor runs compile. Without it,
    /// a broken compiler invocation would make every refusal below pass.
    @Test func aGraphOnlyCallFromInsideTheGraphCompiles() throws {
        let result = try ConfinementCompiler.compile(
            """
            func inside(_ executor: PipelineExecutor, _ queue: WorkQueue) {
                executor.perform { graph in
                    queue.add(priority: .normal, graph) { graph, item in item.finish(graph) }
                }
            }
            func passesItOn(_ queue: WorkQueue, _ graph: borrowing GraphToken) {
                queue.add(priority: .high, graph) { graph, item in item.finish(graph) }
            }
            """)
        #expect(result.succeeded, "\(result.diagnostics)")
    }

    @Test func aGraphOnlyMethodCannotBeCalledWithoutAToken() throws {
        let result = try ConfinementCompiler.compile(
            """
            func fromAWorker(_ queue: WorkQueue) {
                queue.add(priority: .normal) { _, _ in }
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("missing argument"), "\(result.diagnostics)")
    }

    @Test func aJobsStateCannotBeReadWithoutAToken() throws {
        let result = try ConfinementCompiler.compile(
            """
            func peeks(_ job: Job<Int>) -> Bool {
                job.isDone()
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("missing argument"), "\(result.diagnostics)")
    }

    @Test func aJobsStateCanBeReadInsideTheGraph() throws {
        let result = try ConfinementCompiler.compile(
            """
            func reads(_ job: Job<Int>, _ graph: borrowing GraphToken) -> Bool {
                job.isDone(graph) || job.priority(graph) == .high
            }
            """)
        #expect(result.succeeded, "\(result.diagnostics)")
    }

    @Test func aWorkQueuesStateCannotBeReadWithoutAToken() throws {
        let result = try ConfinementCompiler.compile(
            """
            func peeks(_ item: WorkQueue.Item, _ backlog: DecodedImageBacklog) -> Bool {
                item.isCancelled() || backlog.count() > 0
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("missing argument"), "\(result.diagnostics)")
    }

    @Test func aWorkQueuesLinksCannotBeChangedAfterItsInit() throws {
        let result = try ConfinementCompiler.compile(
            """
            func relinks(_ queue: WorkQueue, _ other: WorkQueue) {
                queue.heldBackBy = (other, 1)
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("inaccessible"), "\(result.diagnostics)")
    }

    @Test func aTokenCannotBeMadeOutsideTheExecutor() throws {
        let result = try ConfinementCompiler.compile(
            """
            func forges(_ queue: WorkQueue) {
                let graph = GraphToken()
                queue.add(priority: .normal, graph) { _, _ in }
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("inaccessible"), "\(result.diagnostics)")
    }

    @Test func aTokenCannotBeKeptForLater() throws {
        let result = try ConfinementCompiler.compile(
            """
            final class Keeper { var graph: GraphToken? }
            func keeps(_ executor: PipelineExecutor, _ keeper: Keeper) {
                executor.perform { graph in keeper.graph = graph }
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("consuming"), "\(result.diagnostics)")
    }

    @Test func aTokenCannotBeCarriedToAnotherThreadFromAGraphMethod() throws {
        let result = try ConfinementCompiler.compile(
            """
            import Dispatch
            func handsOff(_ queue: WorkQueue, _ graph: borrowing GraphToken) {
                DispatchQueue.global().async { queue.add(priority: .normal, graph) { _, _ in } }
            }
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("cannot be captured by an escaping closure"), "\(result.diagnostics)")
    }

    /// The same escape from a closure the executor runs does not build either. (Swift 6.3's
    /// move checker crashes on it instead of reporting it, when the closure's parameter takes
    /// its `borrowing` from the closure's type: so only the failure is checked here.)
    @Test func aTokenCannotBeCarriedToAnotherThreadFromAClosureTheExecutorRuns() throws {
        let result = try ConfinementCompiler.compile(
            """
            import Dispatch
            func handsOff(_ executor: PipelineExecutor, _ queue: WorkQueue) {
                executor.perform { graph in
                    DispatchQueue.global().async { queue.add(priority: .normal, graph) { _, _ in } }
                }
            }
            """)
        #expect(!result.succeeded)
    }
}

/// Compiles a snippet (`@testable import Comet` is prepended) through the move checker, against
/// the modules of the build this test binary belongs to.
private enum ConfinementCompiler {
    struct Result {
        let succeeded: Bool
        let diagnostics: String
    }

    static func compile(_ source: String) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-confinement-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Snippet.swift")
        try ("@testable import Comet\n" + source).write(to: file, atomically: true, encoding: .utf8)

        let build = try buildDirectory()
        // The C targets' module maps: Comet's module refers to them.
        let moduleMaps = try FileManager.default.contentsOfDirectory(atPath: build.path)
            .filter { $0.hasSuffix(".build") }
            .map { build.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        // `-emit-sil` runs the SIL diagnostics, where the move checker (borrowing, escaping) lives.
        var arguments = [
            "-swift-version", "6", "-parse-as-library", "-emit-sil", "-o", "/dev/null",
            "-I", build.appendingPathComponent("Modules").path, file.path,
        ]
        for map in moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }

        let process = Process()
        process.executableURL = try swiftc()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(succeeded: process.terminationStatus == 0, diagnostics: String(decoding: data, as: UTF8.self))
    }

    /// The directory of the running test binary's build (`.build/<triple>/debug`, or a
    /// sanitizer build's scratch path).
    private static func buildDirectory() throws -> URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("Modules/Comet.swiftmodule").path)
            {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        throw ConfinementCompilerError.noBuildDirectory(executable.path)
    }

    /// The `swiftc` of the toolchain on `PATH` (the one `swift test` runs from).
    private static func swiftc() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ConfinementCompilerError.noCompiler(path)
    }
}

private enum ConfinementCompilerError: Error {
    case noBuildDirectory(String)
    case noCompiler(String)
}
