import Foundation
import Testing
import CometTestSupport

@Suite("Docs: every Swift block is compiled by a test suite")
struct DocsCodeBlocksTests {
    @Test(arguments: ["docs/image-stream.md", "docs/processing.md", "docs/formats.md", "README.md"])
    func everySwiftBlockAppearsInTheTestSources(guide: String) throws {
        let root = GuideCodeBlocks.repositoryRoot
        // The server's blocks are compiled by the Server/ package's tests (it is a package of its own).
        let missing = try GuideCodeBlocks.blocksMissing(
            from: root.appendingPathComponent(guide),
            in: [root.appendingPathComponent("Tests/CometTests"), root.appendingPathComponent("Server/Tests")])
        #expect(missing.isEmpty, "not compiled by the suite:\n\(missing.joined(separator: "\n---\n"))")
    }
}
