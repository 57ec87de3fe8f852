/// The option table as people read it: the Serving guide's Markdown table and `--help`.
extension ThumbnailOptions {
    /// The options as a Markdown table (the Serving guide's), one row per option of ``table``,
    /// each with its example.
    public static var markdownTable: String {
        let rows = table.map { option in
            let form = option.form.replacingOccurrences(of: "|", with: "\\|")
            let names = ([option.longName] + option.aliases).map { "`\($0)`" }.joined(separator: ", ")
            let imgproxy = imgproxyComparison[option.name] ?? "not compared"
            return "| `\(form)` | \(names) | \(option.summary) | \(imgproxy) | `\(option.example)` |"
        }
        return (["| Option | Long name | Meaning | imgproxy | Example |", "| --- | --- | --- | --- | --- |"] + rows)
            .joined(separator: "\n")
    }

    /// The options as `comet-server --help` lists them, one per line.
    public static var helpText: String {
        table.map { option in
            let names = ([option.longName] + option.aliases).joined(separator: ", ")
            return "  \(option.form) (or \(names)): \(option.summary.replacingOccurrences(of: "`", with: ""))"
        }.joined(separator: "\n")
    }
}
