import Foundation
import Testing
import CometTestSupport

@Suite("GuideCodeBlocks: every Swift block of the Nuke 4 guide is compiled by NukeCompatTests")
struct GuideCodeBlocksTests {
    @Test func everySwiftBlockAppearsInTheTestSources() throws {
        let root = GuideCodeBlocks.repositoryRoot
        let guide = root.appendingPathComponent("Migration/Nuke4/README.md")
        #expect(try GuideCodeBlocks.swiftBlocks(in: guide).count >= 20)
        let missing = try GuideCodeBlocks.blocksMissing(
            from: guide, in: root.appendingPathComponent("Tests/NukeCompatTests"))
        #expect(missing.isEmpty, "not compiled by the suite:\n\(missing.joined(separator: "\n---\n"))")
    }
}
