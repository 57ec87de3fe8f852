import BenchmarkSupport
import Foundation

/// Prints the ratio table of a `swift package benchmark --format influx` export: each Comet
/// figure (median per operation) next to its reference, the ratio Comet / reference, and the
/// target with whether it is met.
///
/// Usage: `BenchmarkReport RESULTS.csv [--markdown]`
@main
enum BenchmarkReport {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let path = arguments.first(where: { !$0.hasPrefix("--") }) else {
            FileHandle.standardError.write(Data("usage: BenchmarkReport RESULTS.csv [--markdown]\n".utf8))
            exit(2)
        }
        let results = try InfluxResults(contentsOf: URL(fileURLWithPath: path))
        let all = Figures.all.map { ReportRow(figure: $0, results: results) }
        // A filtered run (BENCH_ARGS='--filter …') measures some figures only.
        let rows = all.filter { $0.comet != nil || $0.reference != nil }
        let table = ReportTable(rows: rows, markdown: arguments.contains("--markdown"))
        print(table.render())
        let missing = all.filter { $0.comet == nil || $0.reference == nil }
        if !missing.isEmpty {
            print("\nNot measured in this run: " + missing.map(\.figure.name).joined(separator: "; "))
        }
        if rows.isEmpty { exit(1) }
    }
}
