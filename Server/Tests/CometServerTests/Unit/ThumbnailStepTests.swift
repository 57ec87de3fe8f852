import Comet
@testable import CometServer
import Foundation
import Testing

/// The thumbnail pipeline's steps (``ThumbnailPlan/steps``): the one list of the order, as
/// docs/architecture.md states it, covering every option that changes what is made.
@Suite("The thumbnail pipeline's steps")
struct ThumbnailStepTests {
    private static let names = ThumbnailPlan.steps.map { String(describing: type(of: $0)) }

    /// The options no step reads: the delivery and security ones, those that only say what the
    /// server does anyway, and those folded into another at parsing.
    private static let unread: Set<String> = [
        "cb", "exp", "fn", "att", "msr", "msfs", "maf", "mafr", "sm", "kcr", "s", "w", "h", "rt", "raw",
    ]

    private func identifiers(_ segment: String) throws -> [String] {
        let plan = ThumbnailPlan(try ThumbnailOptions.parse(segment, maximumDimension: 4096))
        return plan.processors.map(\.identifier)
    }

    @Test func theOrderArchitectureMdStatesIsTheList() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let paragraph = try #require(
            text.components(separatedBy: "\n\n").first { $0.contains("The steps, in the order they run:") })
        let documented = paragraph.matches(of: /`([A-Za-z]+Step)`/).map { String($0.1) }
        #expect(documented == Self.names)
    }

    @Test func everyStepHasAFileOfItsOwn() {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/CometServer/Processing/Steps")
        for name in Self.names {
            #expect(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(name + ".swift").path), "\(name)")
        }
    }

    @Test func everyOptionThatChangesWhatIsMadeIsReadByAStep() {
        let read = Set(ThumbnailPlan.steps.flatMap { $0.reads.map(\.name) })
        for option in ThumbnailOptions.table where !Self.unread.contains(option.name) {
            #expect(read.contains(option.name), "no step reads \(option.name)")
        }
        #expect(read.isDisjoint(with: Self.unread))
    }

    @Test func theOperationsRunInTheStepsOrderWhateverTheURLsOrder() throws {
        let identifiers = try identifiers("mrd:50/pd:5/bl:2/rs:fill:100:100/fl:1/rot:90/cr:0:0:200:200")
        let expected = [
            ImageProcessors.Rotate(degrees: 90).identifier,
            ImageProcessors.Flip(horizontal: true, vertical: false).identifier,
            ImageProcessors.Crop(x: 0, y: 0, width: 200, height: 200).identifier,
        ]
        #expect(Array(identifiers.prefix(3)) == expected)
        #expect(identifiers[3].hasPrefix("com.comet.resize"))
        #expect(identifiers[4] == ImageProcessors.GaussianBlur(radius: 2).identifier)
        #expect(identifiers[5].contains("padding"))
        #expect(
            identifiers.last
                == ImageProcessors.Resize(size: Size(width: 50, height: 50), contentMode: .aspectFit).identifier)
    }

    @Test func theOperationsAfterASourceAwareResizeRunInsideIt() throws {
        let identifiers = try identifiers("rot:90/dpr:2/rs:fit:100:100/bl:2/pd:5/mrd:50")
        #expect(identifiers.count == 2)
        #expect(identifiers[0] == ImageProcessors.Rotate(degrees: 90).identifier)
        let inside = identifiers[1].split(separator: "|").map(String.init)
        #expect(inside.first?.hasPrefix("com.comet.server.resize?mode=fit") == true)
        #expect(inside.dropFirst().first == ImageProcessors.GaussianBlur(radius: 2).identifier)
        #expect(inside.dropFirst(2).first?.hasPrefix("padding?5:5:5:5") == true)
        #expect(
            inside.last == ImageProcessors.Resize(size: Size(width: 50, height: 50), contentMode: .aspectFit).identifier
        )
    }

    @Test func theLargestSideHoldsAfterASourceAwareResize() throws {
        let plan = ThumbnailPlan(try ThumbnailOptions.parse("dpr:2/rs:fit:300:300/mrd:100", maximumDimension: 4096))
        var image = Image(width: 400, height: 200, color: RGBA8(red: 9, green: 9, blue: 9))
        for processor in plan.processors { image = try processor.process(image) }
        #expect(image.width == 100 && image.height == 50)
    }
}
