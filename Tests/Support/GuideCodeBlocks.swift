import Foundation

/// Keeps guides honest: every fenced ```swift block of a Markdown guide must appear, token for
/// token, in a Swift source file that the test suite compiles.
///
/// A block and a source file are compared as Swift tokens, so whitespace and line breaks do not
/// count: a guide wraps its blocks narrowly for reading, the tests are formatted by
/// `swift format` at 120 columns, and both hold the same code. Nor does a comma right before `)`
/// or `]` (swift-format adds one when it breaks a list over lines). Everything else does:
/// identifiers, literals, punctuation and comments must match. `import` lines are dropped (a test
/// file has imports of its own), so a block may sit inside a function or a type in the test file.
/// Blocks fenced with another language tag (```diff, ```text, ```sh) are prose and are not
/// checked.
public enum GuideCodeBlocks {
    /// The root of the repository (found from this file's location).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```swift blocks of the Markdown file at `guide`, in order.
    public static func swiftBlocks(in guide: URL) throws -> [String] {
        let lines = try String(contentsOf: guide, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [String] = []
        var current: [String]?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = current {
                if trimmed == "```" {
                    blocks.append(open.joined(separator: "\n"))
                    current = nil
                } else {
                    current = open + [line]
                }
            } else if trimmed == "```swift" {
                current = []
            }
        }
        return blocks
    }

    /// The ```swift blocks of `guide` that appear in none of the `.swift` files under `directory`.
    /// An empty result means every block is compiled by the target that owns `directory`.
    public static func blocksMissing(from guide: URL, in directory: URL) throws -> [String] {
        try blocksMissing(from: guide, in: [directory])
    }

    /// The ```swift blocks of `guide` that appear in none of the `.swift` files under any of
    /// `directories` (the test folders of the targets that compile them).
    public static func blocksMissing(from guide: URL, in directories: [URL]) throws -> [String] {
        let sources = try directories.flatMap(swiftFiles(under:)).map {
            normalized(try String(contentsOf: $0, encoding: .utf8))
        }
        return try swiftBlocks(in: guide).filter { block in
            let needle = normalized(block)
            return needle != " " && !sources.contains { $0.contains(needle) }
        }
    }

    private static func swiftFiles(under directory: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// `text` without its `import` lines, as its ``tokens(of:)`` each followed by one space and
    /// with one space in front: a block is in a file when its form is a substring of the file's,
    /// and the spaces make every match start and end at token boundaries.
    private static func normalized(_ text: String) -> String {
        let code = text.components(separatedBy: "\n").filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.hasPrefix("import ") && !trimmed.hasPrefix("@testable import ")
        }
        return " " + tokens(of: code.joined(separator: "\n")).map { $0 + " " }.joined()
    }

    /// `code` as tokens: each run of letters, digits and underscores (identifiers, keywords,
    /// numbers) is one token, every other character that is not whitespace is one token, and
    /// whitespace only separates them. A comma right before `)` or `]` is dropped.
    private static func tokens(of code: String) -> [String] {
        var tokens: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in code.unicodeScalars {
            if scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.append(scalar)
                continue
            }
            if !word.isEmpty {
                tokens.append(String(word))
                word = String.UnicodeScalarView()
            }
            if scalar.properties.isWhitespace { continue }
            if scalar == ")" || scalar == "]", tokens.last == "," { tokens.removeLast() }
            tokens.append(String(scalar))
        }
        if !word.isEmpty { tokens.append(String(word)) }
        return tokens
    }
}
