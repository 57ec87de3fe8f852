import CometTestSupport
import Foundation
import Testing

/// Every ```swift block of Migration/Haneke/README.md is compiled (and run) by this target.
@Suite(.timeLimit(.minutes(10)))
struct GuideCodeBlocksTests {
    @Test func everySwiftBlockOfTheGuideIsInThisTestTarget() throws {
        let root = GuideCodeBlocks.repositoryRoot
        let guide = root.appendingPathComponent("Migration/Haneke/README.md")
        let tests = root.appendingPathComponent("Tests/HanekeCompatTests")
        #expect(try GuideCodeBlocks.swiftBlocks(in: guide).count >= 15)
        #expect(try GuideCodeBlocks.blocksMissing(from: guide, in: tests) == [])
    }
}
