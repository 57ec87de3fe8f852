import CometTestSupport
import Foundation
import Testing

/// docs/architecture.md names files, folders and types; each must exist, so the document
/// cannot drift from the code unnoticed. A name in backticks is checked when it looks like a
/// path (has a `/`, or is a file name with an extension) or a type (`UpperCamelCase`, dotted).
@Suite("docs/architecture.md names what exists")
struct ArchitectureDocTests {
    private static let repository = TestCorpus.repository
    private static let text =
        (try? String(contentsOf: repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)) ?? ""

    /// Every path under the repository's source folders, relative to the root (no build folders).
    private static let paths: [String] = {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(
            at: repository, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        let rootLength = repository.standardizedFileURL.path.count + 1
        while let url = enumerator?.nextObject() as? URL {
            let path = String(url.standardizedFileURL.path.dropFirst(rootLength))
            if path.hasPrefix(".build") || url.lastPathComponent.hasPrefix(".build") {
                enumerator?.skipDescendants()
                continue
            }
            let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            found.append(isDirectory ? path + "/" : path)
        }
        return found
    }()

    /// The names of every type, extension and case declared in the repository's Swift and
    /// the targets of its packages.
    private static let declaredNames: Set<String> = {
        var names: Set<String> = []
        let declaration =
            /(?:class|struct|enum|protocol|actor|typealias|case|extension)\s+(?:[A-Za-z0-9_]+\.)*([A-Z][A-Za-z0-9_]*)/
        let target = /name:\s*"([A-Za-z0-9_-]+)"/
        for path in paths where path.hasSuffix(".swift") {
            guard let source = try? String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
            else { continue }
            for match in source.matches(of: declaration) { names.insert(String(match.1)) }
            if path.hasSuffix("Package.swift") {
                for match in source.matches(of: target) { names.insert(String(match.1)) }
            }
        }
        return names
    }()

    /// Names the document uses that are the platform's, not the repository's.
    private static let platformNames: Set<String> = [
        "Bool", "Hashable", "Sendable", "NSCondition", "NSLock", "Makefile",
    ]

    private static var quoted: [String] {
        text.matches(of: /`([^`\n]+)`/).map { String($0.1) }
    }

    @Test func theDocumentIsThere() {
        #expect(!Self.text.isEmpty, "docs/architecture.md was not read")
    }

    @Test func everyPathItNamesExists() {
        for name in Self.quoted
        where name.contains("/") || name.wholeMatch(of: /[A-Za-z0-9_+-]+\.(swift|c|h|md|txt|sha256)/) != nil {
            // `/info` is a route; a pattern (`<Name>`, `*`) is checked by the folder it is in.
            guard !name.hasPrefix("/"), !name.contains(" ") else { continue }
            let literal = name.split(separator: "/", omittingEmptySubsequences: false)
                .prefix { !$0.contains("<") && !$0.contains("*") }.joined(separator: "/")
            guard !literal.isEmpty else { continue }
            let wanted = literal.count < name.count ? literal + "/" : literal
            let exists = Self.paths.contains {
                $0 == wanted || $0.hasSuffix("/" + wanted) || $0 == wanted + "/" || $0.hasSuffix("/" + wanted + "/")
            }
            #expect(exists, "docs/architecture.md names `\(name)`, which is not in the repository")
        }
    }

    @Test func everyTypeItNamesIsDeclared() {
        for name in Self.quoted where name.wholeMatch(of: /[A-Z][A-Za-z0-9]*(\.[A-Z][A-Za-z0-9]*)*/) != nil {
            let last = String(name.split(separator: ".").last ?? "")
            #expect(
                Self.declaredNames.contains(last) || Self.platformNames.contains(last),
                "docs/architecture.md names `\(name)`, which nothing in the repository declares")
        }
    }
}
