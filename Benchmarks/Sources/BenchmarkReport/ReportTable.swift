/// Renders report rows as an aligned text table or a Markdown table, grouped.
struct ReportTable {
    let rows: [ReportRow]
    let markdown: Bool

    private static let headers = ["Benchmark", "Comet", "Reference", "", "Ratio", "Target", "Notes"]

    func render() -> String {
        var output: [String] = []
        var group = ""
        var lines: [[String]] = []
        func flush() {
            guard !lines.isEmpty else { return }
            output.append(markdown ? "\n### \(group)\n" : "\n== \(group)")
            output.append(contentsOf: format(lines))
            lines = []
        }
        for row in rows {
            if row.figure.group != group { flush(); group = row.figure.group }
            lines.append([
                row.figure.name,
                row.comet.map(ReportRow.duration) ?? "—",
                row.reference.map(ReportRow.duration) ?? "—",
                row.figure.reference,
                row.ratio.map { String(format: "%.2f×", $0) } ?? "—",
                row.verdicts.joined(separator: "; "),
                row.notes.joined(separator: "; "),
            ])
        }
        flush()
        return output.joined(separator: "\n")
    }

    private func format(_ lines: [[String]]) -> [String] {
        if markdown {
            let header = ["Benchmark", "Comet", "Reference", "Reference is", "Ratio", "Target", "Notes"]
            return [
                "| " + header.joined(separator: " | ") + " |", "|" + String(repeating: " --- |", count: header.count),
            ]
                + lines.map { "| " + $0.joined(separator: " | ") + " |" }
        }
        let header = ["benchmark", "Comet", "reference", "reference is", "ratio", "target", "notes"]
        let all = [header] + lines
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { line in
            zip(line, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
        }
    }
}
