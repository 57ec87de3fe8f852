import Foundation
import Testing
import CometTestSupport

@Suite("Docs: every Swift block is compiled by a test suite")
struct DocsCodeBlocksTests {
    @Test(arguments: [
        "README.md",
        "Sources/Comet/Comet.docc/Loading.md", "Sources/Comet/Comet.docc/ThumbnailThenFull.md",
        "Sources/Comet/Comet.docc/RetriesAndHooks.md", "Sources/Comet/Comet.docc/CacheKeys.md",
        "Sources/Imaging/Imaging.docc/DecodingImages.md", "Sources/Imaging/Imaging.docc/Formats.md",
        "Sources/Imaging/Imaging.docc/ProcessingImages.md", "Sources/Streams/Streams.docc/UsingStreams.md",
        "Server/Sources/CometServer/CometServer.docc/Serving.md", "Migration/Migrating.docc/Migrating.md",
    ])
    func everySwiftBlockAppearsInTheTestSources(guide: String) throws {
        let root = GuideCodeBlocks.repositoryRoot
        // The server's blocks are compiled by the Server/ package's tests (it is a package of its own).
        let missing = try GuideCodeBlocks.blocksMissing(
            from: root.appendingPathComponent(guide),
            in: [root.appendingPathComponent("Tests/CometTests"), root.appendingPathComponent("Server/Tests")])
        #expect(missing.isEmpty, "not compiled by the suite:\n\(missing.joined(separator: "\n---\n"))")
    }
}
