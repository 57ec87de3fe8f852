import Foundation
import Testing
import CometTestSupport

@Suite("Docs: every Swift block is compiled by CometTests")
struct DocsCodeBlocksTests {
    @Test(arguments: ["docs/image-stream.md", "docs/processing.md", "docs/formats.md", "README.md"])
    func everySwiftBlockAppearsInTheTestSources(guide: String) throws {
        let root = GuideCodeBlocks.repositoryRoot
        let missing = try GuideCodeBlocks.blocksMissing(
            from: root.appendingPathComponent(guide), in: root.appendingPathComponent("Tests/CometTests"))
        #expect(missing.isEmpty, "not compiled by the suite:\n\(missing.joined(separator: "\n---\n"))")
    }
}
