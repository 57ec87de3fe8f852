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
        let rows = Figures.all.map { ReportRow(figure: $0, results: results) }
        let table = ReportTable(rows: rows, markdown: arguments.contains("--markdown"))
        print(table.render())
        let missing = rows.filter { $0.comet == nil || $0.reference == nil }
        if !missing.isEmpty {
            print("\nMissing from the results: " + missing.map(\.figure.name).joined(separator: "; "))
            exit(1)
        }
    }
}
