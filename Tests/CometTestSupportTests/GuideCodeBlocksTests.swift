import CometTestSupport
import Foundation
import Testing

/// The guide check compares code, not layout: a block wrapped narrowly in a guide is found in a
/// test file that swift-format laid out differently, and a block whose code differs is not.
@Suite("Guide code blocks")
struct GuideCodeBlocksTests {
    /// A guide with one block, narrowly wrapped and without a trailing comma.
    static let guide = """
        Prose.

        ```swift
        import Comet

        let pipeline = ImagePipeline(
            configuration: .init(
                dataLoader: loader,
                retries: 2
            )
        )
        ```

        ```sh
        make test
        ```
        """

    /// A temporary directory holding `Guide.md` and `Tests/Example.swift`; removed when the test ends.
    final class Layout {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "comet-guide-blocks-\(UUID().uuidString)")
        var guide: URL { root.appendingPathComponent("Guide.md") }
        var tests: URL { root.appendingPathComponent("Tests") }

        init(source: String) throws {
            try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
            try GuideCodeBlocksTests.guide.write(to: guide, atomically: true, encoding: .utf8)
            try source.write(to: tests.appendingPathComponent("Example.swift"), atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test func aBlockIsFoundWhateverItsLineBreaksIndentationAndTrailingCommas() throws {
        let layout = try Layout(
            source: """
                import Testing

                @Test func example() {
                    let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, retries: 2,))
                    _ = pipeline
                }
                """)
        #expect(try GuideCodeBlocks.swiftBlocks(in: layout.guide).count == 1)
        #expect(try GuideCodeBlocks.blocksMissing(from: layout.guide, in: layout.tests) == [])
    }

    @Test(arguments: [
        "let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, retries: 3))",
        "let pipeline = ImagePipeline(configuration: .init(dataLoader: loaders, retries: 2))",
        "let pipeline = ImagePipeline(configuration: .init(dataLoader: loader retries: 2))",
        "let pipe line = ImagePipeline(configuration: .init(dataLoader: loader, retries: 2))",
        "let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, retries: 2)",
        "var pipeline = ImagePipeline(configuration: .init(dataLoader: loader, retries: 2))",
    ])
    func aBlockWhoseCodeDiffersIsMissing(line: String) throws {
        // Each variant changes the block's code once: a value, a name, a comma, a space inside a
        // name, a parenthesis, a keyword.
        let layout = try Layout(source: "func example() {\n    \(line)\n}\n")
        #expect(try GuideCodeBlocks.blocksMissing(from: layout.guide, in: layout.tests).count == 1)
    }
}
