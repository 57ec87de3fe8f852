import Foundation

/// Keeps guides honest: every fenced ```swift block of a Markdown guide must appear, line for line,
/// in a Swift source file that the test suite compiles.
///
/// Lines are compared with their indentation and trailing spaces removed; blank lines and `import`
/// lines are dropped (a test file has imports of its own), so a block may sit inside a function or
/// a type in the test file. Blocks fenced with another
/// language tag (```diff, ```text, ```sh) are prose and are not checked.
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
        let sources = try directories.flatMap(swiftFiles(under:)).map { normalized(try String(contentsOf: $0, encoding: .utf8)) }
        return try swiftBlocks(in: guide).filter { block in
            let needle = normalized(block)
            return !needle.isEmpty && !sources.contains { contains($0, needle) }
        }
    }

    private static func swiftFiles(under directory: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    private static func normalized(_ text: String) -> [String] {
        text.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("@testable import ") }
    }

    private static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
