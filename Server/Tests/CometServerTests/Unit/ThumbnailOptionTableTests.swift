import Comet
@testable import CometServer
import Foundation
import Testing

@Suite("The options table: every option declared once, none dropped on any path")
struct ThumbnailOptionTableTests {
    /// What a plan makes: the pipeline request's processing and the encoder's settings (all of
    /// them, as one value: a new encoder setting needs no change here).
    private struct Outcome: Equatable {
        let processors: [String]
        let thumbnail: String?
        let options: ImageRequest.Options
        let encoding: ThumbnailPlan.Encoding
        let skippedSourceFormats: [AssetType]
        let enforcesThumbnail: Bool
        let appliesOrientation: Bool
    }

    private func outcome(_ segment: String) throws -> Outcome {
        let plan = ThumbnailPlan(try ThumbnailOptions.parse(segment, maximumDimension: 4096), watermark: Self.watermark)
        let request = plan.imageRequest(source: URL(string: "https://images.example.com/a.jpg")!)
        return Outcome(
            processors: request.processors.map(\.identifier), thumbnail: request.thumbnail.map { "\($0)" },
            options: request.options, encoding: plan.encoding, skippedSourceFormats: plan.skippedSourceFormats,
            enforcesThumbnail: plan.enforcesThumbnail, appliesOrientation: plan.appliesOrientation)
    }

    /// The server's watermark image, which `wm` draws.
    private static let watermark = WatermarkImage(
        image: Image(width: 4, height: 4, color: RGBA8(red: 0, green: 0, blue: 0)), id: "mark")

    /// Segments each option is added to: none, the decode-time thumbnail path (a lone fit), a
    /// processed path (a fill), and a crop.
    private static let bases = ["-", "rs:fit:256:256", "rs:fill:256:256", "cr:0:0:10:10"]

    /// The options that shape another option's step, and the segments they do that on: alone
    /// they change nothing, as in imgproxy (a gravity without a fill cuts nothing).
    private static let shapers = [
        "g": ["rs:fill:256:256"], "dpr": ["rs:fit:256:256", "rs:fill:256:256", "pd:10"],
        "el": ["rs:fit:256:256", "rs:fill:256:256"], "ex": ["rs:fit:256:256", "rs:fill:256:256"],
        "exar": ["rs:fit:256:256", "rs:fill:256:256"], "z": ["rs:fit:256:256", "rs:fill:256:256"],
        "mw": ["rs:fit:256:256", "rs:fill:256:256"], "mh": ["rs:fit:256:256", "rs:fill:256:256"],
        "rt": ["rs:fit:256:256", "s:256:256"],
    ]

    /// The options spelled as others (`rs`, `skp`) or not at all (a value that is the server's
    /// only behaviour), with the canonical spelling of their example.
    private static let foldedOptions = [
        "s": "rs:fit:300:200", "w": "rs:fit:300:0", "h": "rs:fit:0:200", "rt": "",
        "raw": "skp:jpg:png:webp:avif:gif:heic:jxl",
        "sm": "", "kcr": "",
    ]

    /// The options that only say what the server does anyway.
    private static let acceptedOnly = ["sm", "kcr"]

    /// The delivery options, and the security options that limit the source: they change the
    /// key, the checks or the headers, not what is made.
    private static let deliveryOptions = ["cb", "exp", "fn", "att", "msr", "msfs", "maf", "mafr"]

    @Test(
        arguments: ThumbnailOptions.table.map(\.name).filter {
            !deliveryOptions.contains($0) && !acceptedOnly.contains($0)
        }
    )
    func anOptionChangesWhatIsMadeOnEveryPath(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        for base in Self.shapers[name] ?? Self.bases where !base.hasPrefix(option.name + ":") {
            let combined = base == "-" ? option.example : base + "/" + option.example
            #expect(try outcome(combined) != outcome(base), "\(option.example) is dropped when added to \(base)")
        }
    }

    @Test(arguments: deliveryOptions)
    func aDeliveryOptionChangesTheSpellingButNotWhatIsMade(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        for base in Self.bases {
            let combined = base == "-" ? option.example : base + "/" + option.example
            #expect(try outcome(combined) == outcome(base))
            #expect(try ThumbnailOptions.parse(combined, maximumDimension: 4096).canonical != base)
        }
    }

    @Test(arguments: ["g", "el", "ex", "exar", "rt", "sm", "kcr"])
    func aShapingOptionAloneChangesNothing(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        #expect(try outcome(option.example) == outcome("-"))
    }

    /// imgproxy scales by them without `rs`, so alone they make a resize of their own.
    @Test(arguments: ["dpr", "z", "mw", "mh"])
    func aScalingOptionAloneScalesTheSource(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        #expect(try outcome(option.example) != outcome("-"))
    }

    @Test(arguments: ThumbnailOptions.table.map(\.name))
    func anOptionsExampleIsItsOwnCanonicalSpelling(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        #expect(
            try ThumbnailOptions.parse(option.example, maximumDimension: 4096).canonical
                == Self.foldedOptions[name, default: option.example])
    }

    @Test(arguments: ThumbnailOptions.table.map(\.name))
    func anOptionsLongNameReadsAsItsShortName(_ name: String) throws {
        let option = try #require(ThumbnailOptions.table.first { $0.name == name })
        let long = option.longName + option.example.dropFirst(option.name.count)
        #expect(
            try ThumbnailOptions.parse(long, maximumDimension: 4096)
                == ThumbnailOptions.parse(option.example, maximumDimension: 4096))
    }

    @Test func theCanonicalOrderIsTheTablesWhateverTheURLsOrder() throws {
        // el is spelled inside rs when there is one (rs:…:1), so it is left out here, as the
        // options spelled as others are.
        let examples = ThumbnailOptions.table.filter { $0.name != "el" && Self.foldedOptions[$0.name] == nil }.map(
            \.example)
        let spelled = try ThumbnailOptions.parse(examples.reversed().joined(separator: "/"), maximumDimension: 4096)
            .canonical
        #expect(spelled == examples.joined(separator: "/"))
    }

    @Test func theUnknownOptionErrorNamesEveryOption() {
        let names = ThumbnailOptions.table.map(\.name).joined(separator: ", ")
        #expect(throws: ServiceError.badOptions("unknown option \"nope\" (known: \(names))")) {
            try ThumbnailOptions.parse("nope:1", maximumDimension: 4096)
        }
    }

    /// The guide's "imgproxy" column: every option says "as imgproxy" or how it differs.
    @Test func everyOptionIsComparedWithImgproxys() {
        let names = Set(ThumbnailOptions.table.map(\.name))
        #expect(names.subtracting(ThumbnailOptions.imgproxyComparison.keys).isEmpty)
        #expect(Set(ThumbnailOptions.imgproxyComparison.keys).subtracting(names).isEmpty)
    }

    @Test func theHelpTextListsEveryOption() {
        let lines = ThumbnailOptions.helpText.split(separator: "\n")
        #expect(lines.count == ThumbnailOptions.table.count)
        for (line, option) in zip(lines, ThumbnailOptions.table) {
            #expect(line.contains(option.form) && line.contains(option.longName))
        }
    }

    @Test func theServingGuidesTableIsTheDeclaredOne() throws {
        let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(
            contentsOf: server.appendingPathComponent("Sources/CometServer/CometServer.docc/Serving.md"),
            encoding: .utf8)
        #expect(
            guide.contains(ThumbnailOptions.markdownTable + "\n"),
            "Serving.md's options table differs from ThumbnailOptions.table; it should read:\n\(ThumbnailOptions.markdownTable)"
        )
    }
}
