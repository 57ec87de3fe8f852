import CometTestSupport
import Foundation
import Testing

@Suite("Guide: code blocks", .timeLimit(.minutes(10)))
struct GuideCodeBlocksTests {
    @Test func everySwiftBlockOfTheGuideIsCompiledByThisTestTarget() throws {
        let root = GuideCodeBlocks.repositoryRoot
        let guide = root.appendingPathComponent("Migration/AlamofireImage2/README.md")
        #expect(try GuideCodeBlocks.swiftBlocks(in: guide).count >= 15)
        let missing = try GuideCodeBlocks.blocksMissing(
            from: guide, in: root.appendingPathComponent("Tests/AlamofireImageCompatTests"))
        #expect(
            missing.isEmpty,
            "blocks of the guide not found in Tests/AlamofireImageCompatTests:\n\(missing.joined(separator: "\n---\n"))"
        )
    }
}
